import { exportAccountTransactionsCsv, listAccountTransactions } from '../../usecases/accounts/accountStatement.js';
import { listAccounts } from '../../usecases/accounts/accounts.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import type { Handlers } from '../pipeline/operations.js';

/** The Accounts tag: the caller's accounts and balances, and an account currency's statement (JSON or CSV). */
export function accountHandlers(deps: UseCaseDeps) {
  return {
    listAccounts: async ({ caller }) => ({ status: 200, data: await listAccounts(deps, caller) }),
    listAccountTransactions: async ({ caller, params, query, mediaType }) =>
      mediaType === 'text/csv'
        ? { status: 200, csv: await exportAccountTransactionsCsv(deps, caller, params.accountCurrencyId, query) }
        : { status: 200, data: await listAccountTransactions(deps, caller, params.accountCurrencyId, query) },
    exportAccountTransactions: async ({ caller, params, query }) => ({
      status: 200,
      csv: await exportAccountTransactionsCsv(deps, caller, params.accountCurrencyId, query),
    }),
  } satisfies Partial<Handlers>;
}
