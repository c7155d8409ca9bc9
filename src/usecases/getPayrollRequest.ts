import type { components } from '../../generated/api.js';
import { notFound } from '../domain/errors.js';
import { type PayrollRequestJson, findPayrollRequestJson } from '../store/payrollRequestJson.js';
import type { UseCaseDeps } from './deps.js';
import { JsonText } from './jsonText.js';
import type { Principal } from './principal.js';
import { returnedAmountOf } from './views/payrollRequest.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/**
 * Read one payroll request as it is now, in one statement that builds its JSON in PostgreSQL (the
 * same content as the TypeScript view, views/payrollRequest.ts: a test compares them). A customer
 * sees only their own; another customer's request is reported exactly as a missing one. Admins
 * see every request.
 */
export async function getPayrollRequestJson(deps: Pick<UseCaseDeps, 'db'>, caller: Principal, requestId: string): Promise<JsonText<PayrollRequest>> {
  const found = await findPayrollRequestJson(deps.db, requestId, caller.role === 'admin' ? null : caller.customerId);
  if (!found) throw notFound(`Payroll request ${requestId} not found`);
  return payrollRequestJsonText(found);
}

/** The request's JSON parts as the answer's text, with returnedAmount (a money rule) computed here. */
function payrollRequestJsonText(found: PayrollRequestJson): JsonText<PayrollRequest> {
  // The one money rule of the read stays in TypeScript. The head is "{…}"; the large texts stay
  // parts of their own (JsonText).
  const { head, splitsJson, transfersJson } = found;
  const returnedAmount = JSON.stringify(returnedAmountOf(found.returnedAmounts, found.sourceDecimals));
  return new JsonText([`{"returnedAmount":${returnedAmount},${head.slice(1, -1)},"amountSplitDetails":[`, splitsJson, '],"transfers":[', transfersJson, ']}']);
}

/** The same request as a value (for callers inside the process). */
export async function getPayrollRequest(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<PayrollRequest> {
  return (await getPayrollRequestJson(deps, caller, requestId)).parse();
}
