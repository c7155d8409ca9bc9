import type { components } from '../../../generated/api.js';
import type { BankExceptionKind } from '../../domain/bank/bankReconciliation.js';
import { DomainError, notFound } from '../../domain/errors.js';
import {
  type BankExceptionRow,
  type BankStatementRow,
  findBankException,
  listBankExceptions as listExceptionRows,
  listBankStatements as listStatementRows,
  lockBankException,
  resolveBankException as resolveRow,
} from '../../store/bank/bankExceptions.js';
import { type CreatedPosition, createdPosition, cursorCodec } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireAdmin } from '../access/principal.js';

type Schemas = components['schemas'];
type ExceptionStatus = Schemas['BankExceptionStatus'];

/** The operator's view of the bank's books: the statements reconciled, the exceptions, and their resolution. */

const statementCursor = cursorCodec<CreatedPosition>(createdPosition);

interface ExceptionFilters {
  status: ExceptionStatus | null;
  kind: BankExceptionKind | null;
}

/** A page of exceptions continues only under the filters it began with. */
const exceptionCursor = cursorCodec<CreatedPosition, ExceptionFilters>({
  ...createdPosition,
  filters: { write: ({ status, kind }) => ({ s: status, k: kind }), mismatch: 'query.cursor belongs to other status or kind filters' },
});

export async function listBankStatements(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string },
): Promise<Schemas['BankStatementPage']> {
  requireAdmin(caller);
  const limit = query.limit ?? 20;
  const after = query.cursor ? statementCursor.decode(query.cursor, undefined) : null;
  const rows = await listStatementRows(deps.db, { after, limit: limit + 1 });
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items: rows.slice(0, limit).map(toBankStatement), nextCursor: last ? statementCursor.encode(last, undefined) : null };
}

export async function listBankExceptions(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string; status?: ExceptionStatus; kind?: BankExceptionKind },
): Promise<Schemas['BankExceptionPage']> {
  requireAdmin(caller);
  const limit = query.limit ?? 20;
  const filters: ExceptionFilters = { status: query.status ?? null, kind: query.kind ?? null };
  const after = query.cursor ? exceptionCursor.decode(query.cursor, filters) : null;
  const rows = await listExceptionRows(deps.db, filters, { after, limit: limit + 1 });
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items: rows.slice(0, limit).map(toBankException), nextCursor: last ? exceptionCursor.encode(last, filters) : null };
}

/** One exception, open or resolved: the page an operator links to. */
export async function getBankException(deps: UseCaseDeps, caller: Principal, exceptionId: string): Promise<Schemas['BankException']> {
  requireAdmin(caller);
  const found = await findBankException(deps.db, exceptionId);
  if (!found) throw notFound(`Bank exception ${exceptionId} not found`);
  return toBankException(found);
}

/** An operator closes an exception with a note: who and when are recorded; no money moves. */
export async function resolveBankException(
  deps: UseCaseDeps,
  caller: Principal,
  exceptionId: string,
  body: Schemas['ResolveBankExceptionRequest'],
): Promise<Schemas['BankException']> {
  requireAdmin(caller);
  return deps.db.transaction(async (tx) => {
    const found = await lockBankException(tx, exceptionId);
    if (!found) throw notFound(`Bank exception ${exceptionId} not found`);
    if (found.status === 'RESOLVED') throw new DomainError('INVALID_STATE', `Bank exception ${exceptionId} is already RESOLVED`);
    return toBankException(await resolveRow(tx, exceptionId, { userId: caller.userId, note: body.note, at: deps.clock() }));
  });
}

function toBankStatement(row: BankStatementRow): Schemas['BankStatement'] {
  return {
    id: row.id,
    messageId: row.msgId,
    accountCurrencyId: row.accountCurrencyId,
    iban: row.iban,
    currencyCode: row.currencyCode,
    date: row.date,
    ...(row.openingBalance !== null && { openingBalance: row.openingBalance }),
    ...(row.closingBalance !== null && { closingBalance: row.closingBalance }),
    ledgerBalance: row.ledgerBalance,
    entryCount: row.entryCount,
    exceptionCount: row.exceptionCount,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Optional fields absent (never null) until they apply. */
function toBankException(row: BankExceptionRow): Schemas['BankException'] {
  const present = <K extends string, V>(key: K, value: V | null) => (value === null ? {} : ({ [key]: value } as Record<K, V>));
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    detail: row.detail,
    ...present('messageId', row.msgId),
    ...present('statementId', row.statementId),
    ...present('accountCurrencyId', row.accountCurrencyId),
    ...present('transferId', row.transferId),
    ...present('endToEndId', row.endToEndId),
    ...present('bankReference', row.bankReference),
    ...present('entryReference', row.entryReference),
    ...present('creditDebit', row.creditDebit),
    ...present('bookedAmount', row.bookedAmount),
    ...present('expectedAmount', row.expectedAmount),
    ...present('difference', row.difference),
    ...present('currencyCode', row.currencyCode),
    ...present('bookedAt', row.bookedAt && row.bookedAt.toISOString()),
    createdAt: row.createdAt.toISOString(),
    ...(row.resolvedAt && { resolution: resolutionOf(row, row.resolvedAt) }),
  };
}

function resolutionOf(row: BankExceptionRow, resolvedAt: Date): Schemas['BankExceptionResolution'] {
  const common = { note: row.resolutionNote ?? '', resolvedAt: resolvedAt.toISOString() };
  if (row.resolvedByMsgId !== null) {
    return {
      ...common,
      resolvedBy: 'BANK_FILE',
      messageId: row.resolvedByMsgId,
      ...(row.resolvedByBankReference !== null && { bankReference: row.resolvedByBankReference }),
    };
  }
  return { ...common, resolvedBy: 'OPERATOR', ...(row.resolvedByUserId !== null && { resolvedByUserId: row.resolvedByUserId }) };
}
