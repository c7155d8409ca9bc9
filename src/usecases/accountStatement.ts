import type { components } from '../../generated/api.js';
import { validationError } from '../domain/errors.js';
import { MAX_CSV_ROWS, checkStatementRange } from '../domain/statement.js';
import { listStatement } from '../store/accounts.js';
import { customerAccountCurrency } from './accounts.js';
import type { UseCaseDeps } from './deps.js';
import { type Principal, requireCustomer } from './principal.js';
import { toStatementCsv, toTransaction } from './views/accounts.js';

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
  const beforeId = query.cursor === undefined ? null : decodeCursor(query.cursor, range);
  return deps.db.transaction(async (tx) => {
    const account = await customerAccountCurrency(tx, customerId, accountCurrencyId);
    const rows = await listStatement(tx, { accountCurrencyId: account.id, ...range, beforeId, limit: limit + 1 });
    const items = rows.slice(0, limit).map((row) => toTransaction(row, account.decimals));
    const last = rows.length > limit ? items[limit - 1] : undefined;
    return { items, nextCursor: last ? encodeCursor(last.id, range) : null };
  });
}

/** The whole statement of the range as CSV: at most MAX_CSV_ROWS postings, else 400 (never truncated). */
export async function exportAccountTransactionsCsv(deps: UseCaseDeps, caller: Principal, accountCurrencyId: string, query: StatementQuery): Promise<string> {
  const customerId = requireCustomer(caller);
  if (query.limit !== undefined) throw validationError('query.limit does not apply to the CSV statement, which holds the whole range');
  if (query.cursor !== undefined) throw validationError('query.cursor does not apply to the CSV statement, which holds the whole range');
  const range = rangeOf(query);
  return deps.db.transaction(async (tx) => {
    const account = await customerAccountCurrency(tx, customerId, accountCurrencyId);
    const rows = await listStatement(tx, { accountCurrencyId: account.id, ...range, beforeId: null, limit: MAX_CSV_ROWS + 1 });
    if (rows.length > MAX_CSV_ROWS) {
      throw validationError(`The statement has more than ${MAX_CSV_ROWS} postings between query.from and query.to; narrow the range`);
    }
    return toStatementCsv(rows.map((row) => toTransaction(row, account.decimals)));
  });
}

/** Opaque to clients: the last posting id read and the filters it belongs to. */
function encodeCursor(postingId: string, range: Range): string {
  return Buffer.from(JSON.stringify({ i: postingId, f: range.from?.toISOString() ?? null, t: range.to?.toISOString() ?? null })).toString('base64url');
}

function decodeCursor(cursor: string, range: Range): string {
  const parsed = cursorFields(cursor);
  if (!parsed || typeof parsed.i !== 'string' || !/^[1-9][0-9]{0,17}$/.test(parsed.i))
    throw validationError('query.cursor is not a cursor this service issued');
  if ((parsed.f ?? null) !== (range.from?.toISOString() ?? null) || (parsed.t ?? null) !== (range.to?.toISOString() ?? null)) {
    throw validationError('query.cursor belongs to other from/to filters');
  }
  return parsed.i;
}

function cursorFields(cursor: string): { i?: unknown; f?: unknown; t?: unknown } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof value === 'object' ? (value as { i?: unknown; f?: unknown; t?: unknown } | null) : null;
  } catch {
    return null;
  }
}
