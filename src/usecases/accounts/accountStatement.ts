import type { components } from '../../../generated/api.js';
import { validationError } from '../../domain/errors.js';
import { MAX_CSV_ROWS, checkStatementRange } from '../../domain/ledger/statement.js';
import { listStatement } from '../../store/ledger/accounts.js';
import { customerAccountCurrency } from './accounts.js';
import { cursorCodec } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireCustomer } from '../access/principal.js';
import { toStatementCsv, toTransaction } from '../views/accounts.js';

type Schemas = components['schemas'];

export interface StatementQuery {
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

interface Range {
  from: Date | null;
  to: Date | null;
}

function rangeOf(query: StatementQuery): Range {
  const range = { from: query.from === undefined ? null : new Date(query.from), to: query.to === undefined ? null : new Date(query.to) };
  checkStatementRange(range.from, range.to);
  return range;
}

/** The last posting id read (a bigint, as text); a page continues only within the range it began with. */
const statementCursor = cursorCodec<string, Range>({
  write: (postingId) => ({ i: postingId }),
  read: ({ i }) => (typeof i === 'string' && /^[1-9][0-9]{0,17}$/.test(i) ? i : null),
  filters: {
    write: ({ from, to }) => ({ f: from?.toISOString() ?? null, t: to?.toISOString() ?? null }),
    mismatch: 'query.cursor belongs to other from/to filters',
  },
});

/** One page of the statement of one of the caller's account currencies, newest first. */
export async function listAccountTransactions(
  deps: UseCaseDeps,
  caller: Principal,
  accountCurrencyId: string,
  query: StatementQuery,
): Promise<Schemas['AccountTransactionPage']> {
  const customerId = requireCustomer(caller);
  const range = rangeOf(query);
  const limit = query.limit ?? 20;
  const beforeId = query.cursor === undefined ? null : statementCursor.decode(query.cursor, range);
  return deps.db.transaction(async (tx) => {
    const account = await customerAccountCurrency(tx, customerId, accountCurrencyId);
    const rows = await listStatement(tx, { accountCurrencyId: account.id, ...range, beforeId, limit: limit + 1 });
    const items = rows.slice(0, limit).map((row) => toTransaction(row, account.decimals));
    const last = rows.length > limit ? items[limit - 1] : undefined;
    return { items, nextCursor: last ? statementCursor.encode(last.id, range) : null };
  });
}

/** The whole statement of the range as CSV: at most MAX_CSV_ROWS postings, else 400 (never truncated). */
export async function exportAccountTransactionsCsv(deps: UseCaseDeps, caller: Principal, accountCurrencyId: string, query: StatementQuery): Promise<string> {
  const customerId = requireCustomer(caller);
  if (query.limit !== undefined) throw validationError('query.limit does not apply to the CSV statement, which holds the whole range', { field: 'limit' });
  if (query.cursor !== undefined) throw validationError('query.cursor does not apply to the CSV statement, which holds the whole range', { field: 'cursor' });
  const range = rangeOf(query);
  return deps.db.transaction(async (tx) => {
    const account = await customerAccountCurrency(tx, customerId, accountCurrencyId);
    const rows = await listStatement(tx, { accountCurrencyId: account.id, ...range, beforeId: null, limit: MAX_CSV_ROWS + 1 });
    if (rows.length > MAX_CSV_ROWS) {
      throw validationError(`The statement has more than ${MAX_CSV_ROWS} postings between query.from and query.to; narrow the range`, {
        reason: 'STATEMENT_TOO_LARGE',
      });
    }
    return toStatementCsv(rows.map((row) => toTransaction(row, account.decimals)));
  });
}
