import { DomainError } from '../domain/errors.js';
import { pingDatabase } from '../store/ping.js';
import type { UseCaseDeps } from './deps.js';

/** Ready when the database answers: 503 SERVICE_UNAVAILABLE otherwise, so an orchestrator holds traffic back. */
export async function checkReadiness(deps: Pick<UseCaseDeps, 'db'>): Promise<{ status: 'ready'; database: UseCaseDeps['db']['kind'] }> {
  try {
    await pingDatabase(deps.db);
  } catch {
    throw new DomainError('SERVICE_UNAVAILABLE', 'The database is not reachable');
  }
  return { status: 'ready', database: deps.db.kind };
}
