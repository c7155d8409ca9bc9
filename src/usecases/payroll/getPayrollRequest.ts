import type { components } from '../../../generated/api.js';
import { notFound } from '../../domain/errors.js';
import type { Database, Queryable } from '../../store/database/db.js';
import type { UseCaseDeps } from '../deps.js';
import { JsonStream } from '../answers/jsonStream.js';
import { readPayrollRequest } from './payrollRequestReading.js';
import type { Principal } from '../access/principal.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/**
 * One payroll request as it is now, whatever its size: read inside one snapshot and written by the
 * request's one writer page by page while the route sends it, so that it is never whole in the
 * process. A customer sees only their own; another customer's request is reported exactly as a
 * missing one (before any byte is sent). Admins see every request.
 */
export function answerPayrollRequest(
  deps: Pick<UseCaseDeps, 'db' | 'readCache'>,
  caller: Principal,
  requestId: string,
  pageItems?: number,
): JsonStream<PayrollRequest> {
  return new JsonStream((sink) =>
    inSnapshot(deps.db, async (tx) => {
      const reading = await readPayrollRequest(tx, requestId, caller.role === 'admin' ? null : caller.customerId, pageItems);
      if (!reading) throw notFound(`Payroll request ${requestId} not found`);
      await sink(deps.readCache ? reading.textThrough(deps.readCache) : reading.text());
    }),
  );
}

/** A read-only transaction that sees one snapshot from its first statement to its last. */
function inSnapshot(db: Database, read: (tx: Queryable) => Promise<void>): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    await read(tx);
  });
}

/** The same request as a value (for callers inside the process). */
export async function getPayrollRequest(deps: Pick<UseCaseDeps, 'db' | 'readCache'>, caller: Principal, requestId: string): Promise<PayrollRequest> {
  return JSON.parse(await answerPayrollRequest(deps, caller, requestId).text()) as PayrollRequest;
}
