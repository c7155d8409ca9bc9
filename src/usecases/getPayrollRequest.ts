import type { components } from '../../generated/api.js';
import { notFound } from '../domain/errors.js';
import { returnedAmountOf } from '../domain/returnedAmount.js';
import { type PayrollRequestJson, findPayrollRequestJson } from '../store/payrollRequestJson.js';
import { payrollRequestTopLevel } from '../store/payrollRequestTopLevel.js';
import type { UseCaseDeps } from './deps.js';
import { JsonText } from './jsonText.js';
import type { Principal } from './principal.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/**
 * Read one payroll request as it is now, in one statement that builds its JSON in PostgreSQL (the
 * same content as the TypeScript oracle of the tests: a test compares them). A customer
 * sees only their own; another customer's request is reported exactly as a missing one. Admins
 * see every request.
 */
export async function getPayrollRequestJson(deps: Pick<UseCaseDeps, 'db'>, caller: Principal, requestId: string): Promise<JsonText<PayrollRequest>> {
  const found = await findPayrollRequestJson(deps.db, requestId, caller.role === 'admin' ? null : caller.customerId);
  if (!found) throw notFound(`Payroll request ${requestId} not found`);
  return payrollRequestJsonText(found);
}

/** The request's JSON parts as the answer's text: its top level around its items (the large texts stay parts of their own). */
function payrollRequestJsonText(found: PayrollRequestJson): JsonText<PayrollRequest> {
  const top = payrollRequestTopLevel(returnedAmountOf(found.returnedAmounts, found.sourceDecimals), found.head);
  return new JsonText([top.opening, found.splitsJson, top.between, found.transfersJson, top.closing]);
}

/** The same request as a value (for callers inside the process). */
export async function getPayrollRequest(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<PayrollRequest> {
  return (await getPayrollRequestJson(deps, caller, requestId)).parse();
}
