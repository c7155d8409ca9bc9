import type { BankExceptionKind } from '../../domain/bank/bankReconciliation.js';
import type { Queryable } from '../database/db.js';

/** The statements reconciled and the exceptions found (the bank's books reconciled): their rows, pages and resolution. */

export interface NewBankException {
  kind: BankExceptionKind;
  detail: string;
  accountCurrencyId: string | null;
  transferId: string | null;
  endToEndId: string | null;
  bankReference: string | null;
  entryReference: string | null;
  creditDebit: 'CRDT' | 'DBIT' | null;
  bookedAmount: string | null;
  expectedAmount: string | null;
  difference: string | null;
  currencyCode: string | null;
  bookedAt: Date | null;
}

export interface BankExceptionRow extends NewBankException {
  id: string;
  status: 'OPEN' | 'RESOLVED';
  msgId: string | null;
  statementId: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedByUserId: string | null;
  resolutionNote: string | null;
  /** Set when the bank's own file resolved it (a MISSING_BOOKING booked at last). */
  resolvedByMsgId: string | null;
  resolvedByBankReference: string | null;
}

const EXCEPTION_COLUMNS = `id, kind, status, detail, msg_id AS "msgId", statement_id AS "statementId", account_currency_id AS "accountCurrencyId",
  transfer_id AS "transferId", end_to_end_id AS "endToEndId", account_servicer_reference AS "bankReference", entry_reference AS "entryReference",
  credit_debit AS "creditDebit", booked_amount::text AS "bookedAmount", expected_amount::text AS "expectedAmount", difference::text AS difference,
  currency_code AS "currencyCode", booked_at AS "bookedAt", created_at AS "createdAt", resolved_at AS "resolvedAt",
  resolved_by_user_id AS "resolvedByUserId", resolution_note AS "resolutionNote", resolved_by_msg_id AS "resolvedByMsgId",
  resolved_by_bank_reference AS "resolvedByBankReference"`;

/** Inserts exceptions in one statement; a second MISSING_BOOKING of a payout is skipped. Returns how many were inserted. */
export async function insertBankExceptions(
  tx: Queryable,
  origin: { msgId: string | null; statementId: string | null; at: Date },
  exceptions: readonly NewBankException[],
): Promise<number> {
  if (exceptions.length === 0) return 0;
  const rows = await tx.query(
    `INSERT INTO bank_exceptions (id, kind, detail, msg_id, statement_id, account_currency_id, transfer_id, end_to_end_id, account_servicer_reference,
                                  entry_reference, credit_debit, booked_amount, expected_amount, difference, currency_code, booked_at, created_at)
     SELECT gen_random_uuid(), x.kind, x.detail, $2, $3, x."accountCurrencyId", x."transferId", x."endToEndId", x."bankReference",
            x."entryReference", x."creditDebit", x."bookedAmount", x."expectedAmount", x.difference, x."currencyCode", x."bookedAt", $4
       FROM jsonb_to_recordset($1::jsonb) AS x(kind text, detail text, "accountCurrencyId" uuid, "transferId" uuid, "endToEndId" text,
            "bankReference" text, "entryReference" text, "creditDebit" text, "bookedAmount" numeric, "expectedAmount" numeric,
            difference numeric, "currencyCode" text, "bookedAt" timestamptz)
     ON CONFLICT (transfer_id) WHERE kind = 'MISSING_BOOKING' DO NOTHING
     RETURNING id`,
    [JSON.stringify(exceptions), origin.msgId, origin.statementId, origin.at],
  );
  return rows.length;
}

export interface BankStatementRow {
  id: string;
  msgId: string;
  reportId: string;
  accountCurrencyId: string;
  iban: string;
  currencyCode: string;
  date: string;
  endsAt: Date;
  openingBalance: string | null;
  closingBalance: string | null;
  ledgerBalance: string;
  entryCount: number;
  exceptionCount: number;
  status: 'RECONCILED' | 'EXCEPTIONS';
  createdAt: Date;
}

export async function insertBankStatement(tx: Queryable, statement: BankStatementRow): Promise<void> {
  await tx.query(
    `INSERT INTO bank_statements (id, msg_id, report_id, account_currency_id, iban, currency_code, statement_date, ends_at, opening_balance,
                                  closing_balance, ledger_balance, entry_count, exception_count, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      statement.id,
      statement.msgId,
      statement.reportId,
      statement.accountCurrencyId,
      statement.iban,
      statement.currencyCode,
      statement.date,
      statement.endsAt,
      statement.openingBalance,
      statement.closingBalance,
      statement.ledgerBalance,
      statement.entryCount,
      statement.exceptionCount,
      statement.status,
      statement.createdAt,
    ],
  );
}

/** A statement's exceptions, counted once all are written: its status follows. */
export async function settleStatementStatus(tx: Queryable, statementId: string): Promise<void> {
  await tx.query(
    `UPDATE bank_statements s SET exception_count = c.n, status = CASE WHEN c.n = 0 THEN 'RECONCILED' ELSE 'EXCEPTIONS' END
       FROM (SELECT count(*)::int AS n FROM bank_exceptions WHERE statement_id = $1) c WHERE s.id = $1`,
    [statementId],
  );
}

export interface PageAfter {
  after: { createdAt: Date; id: string } | null;
  limit: number;
}

export async function listBankStatements(tx: Queryable, page: PageAfter): Promise<BankStatementRow[]> {
  return tx.query<BankStatementRow>(
    `SELECT id, msg_id AS "msgId", report_id AS "reportId", account_currency_id AS "accountCurrencyId", iban, currency_code AS "currencyCode",
            to_char(statement_date, 'YYYY-MM-DD') AS date, ends_at AS "endsAt", opening_balance::text AS "openingBalance",
            closing_balance::text AS "closingBalance", ledger_balance::text AS "ledgerBalance", entry_count AS "entryCount",
            exception_count AS "exceptionCount", status, created_at AS "createdAt"
       FROM bank_statements
      WHERE ($1::timestamptz IS NULL OR (created_at, id) < ($1, $2::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
  );
}

export async function listBankExceptions(
  tx: Queryable,
  filters: { status: 'OPEN' | 'RESOLVED' | null; kind: BankExceptionKind | null },
  page: PageAfter,
): Promise<BankExceptionRow[]> {
  return tx.query<BankExceptionRow>(
    `SELECT ${EXCEPTION_COLUMNS} FROM bank_exceptions
      WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR kind = $2)
        AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $5`,
    [filters.status, filters.kind, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
  );
}

/** The exception as it stands; null when there is none. */
export async function findBankException(tx: Queryable, id: string): Promise<BankExceptionRow | null> {
  const rows = await tx.query<BankExceptionRow>(`SELECT ${EXCEPTION_COLUMNS} FROM bank_exceptions WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** The exception, locked for its resolution; null when there is none. */
export async function lockBankException(tx: Queryable, id: string): Promise<BankExceptionRow | null> {
  const rows = await tx.query<BankExceptionRow>(`SELECT ${EXCEPTION_COLUMNS} FROM bank_exceptions WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}

export async function resolveBankException(tx: Queryable, id: string, resolution: { userId: string; note: string; at: Date }): Promise<BankExceptionRow> {
  const rows = await tx.query<BankExceptionRow>(
    `UPDATE bank_exceptions SET status = 'RESOLVED', resolved_at = $2, resolved_by_user_id = $3, resolution_note = $4
      WHERE id = $1 AND status = 'OPEN' RETURNING ${EXCEPTION_COLUMNS}`,
    [id, resolution.at, resolution.userId, resolution.note],
  );
  return rows[0]!;
}

/** Open exceptions per kind (`pending`) and the age of the oldest of each, at `now` (for the metrics). */
export async function openBankExceptions(db: Queryable, now: Date): Promise<{ kind: BankExceptionKind; pending: number; oldestSeconds: number }[]> {
  return db.query(
    `SELECT kind, count(*)::int AS pending, GREATEST(0, EXTRACT(EPOCH FROM ($1::timestamptz - min(created_at))))::float8 AS "oldestSeconds"
       FROM bank_exceptions WHERE status = 'OPEN' GROUP BY kind`,
    [now],
  );
}

/**
 * The open MISSING_BOOKINGs of the payouts this message booked or returned, resolved by it: the bank's
 * own books answered them. Its MsgId and the booking's AcctSvcrRef are recorded. Returns how many.
 */
export async function resolveMissingBookingsBookedIn(tx: Queryable, msgId: string, at: Date): Promise<number> {
  const rows = await tx.query(
    `UPDATE bank_exceptions e
        SET status = 'RESOLVED', resolved_at = $2, resolved_by_msg_id = $1,
            resolved_by_bank_reference = CASE m.kind WHEN 'PAYOUT' THEN t.bank_booking->>'bankReference' ELSE t.bank_return->>'bankReference' END,
            resolution_note = 'The bank ' || CASE m.kind WHEN 'PAYOUT' THEN 'booked' ELSE 'returned' END || ' the payout in message ' || $1
              || coalesce(' (AcctSvcrRef ' || CASE m.kind WHEN 'PAYOUT' THEN t.bank_booking->>'bankReference' ELSE t.bank_return->>'bankReference' END || ')', '')
       FROM bank_matched_bookings m
       JOIN (SELECT id, bank_booking, bank_return FROM transfers UNION ALL SELECT id, bank_booking, bank_return FROM payouts) t ON t.id::text = m.reference
      WHERE m.msg_id = $1 AND m.kind IN ('PAYOUT', 'RETURN')
        AND e.transfer_id = t.id AND e.kind = 'MISSING_BOOKING' AND e.status = 'OPEN'
      RETURNING e.id`,
    [msgId, at],
  );
  return rows.length;
}
