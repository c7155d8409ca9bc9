import type { UseCaseDeps } from '../../usecases/deps.js';
import { checkReadiness } from '../../usecases/operations/readiness.js';
import type { Handlers } from '../pipeline/operations.js';

/** The Operations tag: the probes of an orchestrator, without authentication. */
export function healthHandlers(deps: UseCaseDeps) {
  return {
    getHealth: async () => ({ status: 200, data: { status: 'ok' } }),
    getReadiness: async () => ({ status: 200, data: await checkReadiness(deps) }),
  } satisfies Partial<Handlers>;
}
