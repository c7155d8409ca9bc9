import type { UseCaseDeps } from '../../usecases/deps.js';
import { estimatePayoutFees } from '../../usecases/fees/estimatePayoutFees.js';
import { createPayout, getPayout } from '../../usecases/payouts/payouts.js';
import type { Handlers } from '../pipeline/operations.js';

/** The Payouts tag: single payouts from one of the caller's accounts. */
export function payoutHandlers(deps: UseCaseDeps) {
  return {
    estimatePayoutFees: async ({ caller, params, query }) => ({
      status: 200,
      data: await estimatePayoutFees(deps, caller, { accountId: params.accountId, ...query }),
    }),
    createPayout: async ({ caller, params, body }) => ({ status: 201, data: await createPayout(deps, caller, params.accountId, body) }),
    getPayout: async ({ caller, params }) => ({ status: 200, data: await getPayout(deps, caller, params.accountId, params.payoutId) }),
  } satisfies Partial<Handlers>;
}
