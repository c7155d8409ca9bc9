import { createApiKey, listCustomerApiKeys, revokeApiKey } from '../../usecases/access/apiKeys.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import type { Handlers } from '../pipeline/operations.js';

/** The API keys tag: a customer's secret keys for server-to-server calls. */
export function apiKeyHandlers(deps: UseCaseDeps) {
  return {
    createApiKey: async ({ caller, body }) => ({ status: 201, data: await createApiKey(deps, caller, body) }),
    listApiKeys: async ({ caller, query }) => ({ status: 200, data: await listCustomerApiKeys(deps, caller, query) }),
    revokeApiKey: async ({ caller, params }) => ({ status: 200, data: await revokeApiKey(deps, caller, params.apiKeyId) }),
  } satisfies Partial<Handlers>;
}
