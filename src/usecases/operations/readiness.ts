import { DomainError } from '../../domain/errors.js';
import { pingDatabase } from '../../store/database/ping.js';
import type { UseCaseDeps } from '../deps.js';

interface Readiness {
  status: 'ready';
  database: UseCaseDeps['db']['kind'];
  redis?: 'connected' | 'degraded';
}

/**
 * Ready when the database answers: 503 SERVICE_UNAVAILABLE otherwise, so an orchestrator holds
 * traffic back. Redis, when configured, is reported but never makes the service unready.
 */
export async function checkReadiness(deps: Pick<UseCaseDeps, 'db' | 'optionalDependencies'>): Promise<Readiness> {
  try {
    await pingDatabase(deps.db);
  } catch {
    throw new DomainError('SERVICE_UNAVAILABLE', 'The database is not reachable');
  }
  const redis = deps.optionalDependencies?.redis?.();
  return { status: 'ready', database: deps.db.kind, ...(redis && { redis }) };
}
