import type { components } from '../../generated/api.js';
import type { TransferStatus } from '../domain/transfers.js';
import type { Queryable } from './db.js';

/**
 * What the bank booked (its camt.054/053 messages): the messages applied, the bookings matched to our payouts,
 * credits and returns, and what matching needs to read of ours. SQL only; the rules are in
 * src/domain/bankReconciliation.ts and the use case.
 */

export interface NewBankBooksMessage {
  msgId: string;
  kind: 'camt.053' | 'camt.054';
  fileName: string;
  sha256: string;
  receivedAt: Date;
  appliedAt: Date;
}

/** Records a message once: false when a message of this MsgId was applied before (nothing changes). */
export async function recordBankBooksMessage(tx: Queryable, message: NewBankBooksMessage): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO bank_books_messages (msg_id, kind, file_name, sha256, received_at, applied_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (msg_id) DO NOTHING RETURNING msg_id`,
    [message.msgId, message.kind, message.fileName, message.sha256, message.receivedAt, message.appliedAt],
  );
  return rows.length === 1;
}

export async function countBankBooksMessage(tx: Queryable, msgId: string, entries: number, exceptions: number): Promise<void> {
  await tx.query('UPDATE bank_books_messages SET entry_count = $2, exception_count = $3 WHERE msg_id = $1', [msgId, entries, exceptions]);
}

/** One of our account currencies at the bank: by the account's IBAN and the currency. */
export interface BankAccountOfOurs {
  accountCurrencyId: string;
  currencyCode: string;
  decimals: number;
}

export async function findAccountByIban(tx: Queryable, iban: string, currencyCode: string | null): Promise<BankAccountOfOurs | null> {
  const rows = await tx.query<BankAccountOfOurs>(
    `SELECT ac.id AS "accountCurrencyId", ac.currency_code AS "currencyCode", c.decimals
       FROM accounts a JOIN account_currencies ac ON ac.account_id = a.id JOIN currencies c ON c.code = ac.currency_code
      WHERE upper(replace(a.iban, ' ', '')) = upper(replace($1, ' ', '')) AND ($2::text IS NULL OR ac.currency_code = $2)
      ORDER BY ac.id LIMIT 2`,
    [iban, currencyCode],
  );
  // An account of several currencies needs the statement's currency to say which.
  return rows.length === 1 ? rows[0]! : null;
}

/** A payout of ours the bank files named by its EndToEndId, with what booking and returning it needs. */
export interface BookablePayout {
  transferId: string;
  status: TransferStatus;
  amount: string;
  currencyCode: string;
  payrollRequestId: string;
  customerId: string;
  batchId: string | null;
  fileStatus: 'PROCESSING' | 'COMPLETED' | 'FAILED';
  quotedSourceAmount: string | null;
  booked: boolean;
}

/** The payroll payout a bank file named `endToEndId`; null for none (or a single payout, which has no transfer). */
export async function findPayoutByEndToEndId(tx: Queryable, endToEndId: string): Promise<BookablePayout | null> {
  const rows = await tx.query<BookablePayout>(
    `SELECT t.id AS "transferId", t.status, t.amount::text AS amount, t.currency_code AS "currencyCode",
            t.payroll_request_id AS "payrollRequestId", r.customer_id AS "customerId", t.batch_id AS "batchId",
            i.status AS "fileStatus", s.quoted_source_currency_amount::text AS "quotedSourceAmount", t.bank_booking IS NOT NULL AS booked
       FROM bank_file_items i
       JOIN transfers t ON t.id = i.transfer_id
       JOIN payroll_requests r ON r.id = t.payroll_request_id
       LEFT JOIN amount_splits s ON s.id = t.amount_split_id
      WHERE i.end_to_end_id = lower($1)`,
    [endToEndId],
  );
  return rows[0] ?? null;
}

/** A single payout of ours the bank files named by its EndToEndId, with what booking and returning it needs. */
export interface BookableSinglePayout {
  payoutId: string;
  status: TransferStatus;
  amount: string;
  currencyCode: string;
  accountCurrencyId: string;
  fileStatus: 'PROCESSING' | 'COMPLETED' | 'FAILED';
}

/** The single payout a bank file named `endToEndId`, or null. */
export async function findSinglePayoutByEndToEndId(tx: Queryable, endToEndId: string): Promise<BookableSinglePayout | null> {
  const rows = await tx.query<BookableSinglePayout>(
    `SELECT p.id AS "payoutId", p.status, p.amount::text AS amount, p.currency_code AS "currencyCode",
            p.account_currency_id AS "accountCurrencyId", i.status AS "fileStatus"
       FROM bank_file_items i JOIN payouts p ON p.id = i.transfer_id
      WHERE i.end_to_end_id = lower($1)`,
    [endToEndId],
  );
  return rows[0] ?? null;
}

export async function setPayoutBankBooking(tx: Queryable, payoutId: string, booking: components['schemas']['TransferBankBooking'], at: Date): Promise<void> {
  await tx.query('UPDATE payouts SET bank_booking = $2::jsonb, updated_at = $3 WHERE id = $1', [payoutId, JSON.stringify(booking), at]);
}

/** A single payout COMPLETED → RETURNED with the return; false when it is no longer COMPLETED. */
export async function returnSinglePayout(tx: Queryable, payoutId: string, bankReturn: components['schemas']['TransferBankReturn'], at: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE payouts SET status = 'RETURNED', bank_return = $2::jsonb, locked_until = NULL, updated_at = $3
      WHERE id = $1 AND status = 'COMPLETED' RETURNING id`,
    [payoutId, JSON.stringify(bankReturn), at],
  );
  return rows.length === 1;
}

/**
 * What a credit naming `reference` should bring into the account currency: the request's FX
 * conversion into the partner-bank account when `reference` is its move-to-bank transfer
 * (PROCESSOR_TO_BANK), or an admin's funding of the account currency. Null when it is neither.
 */
export async function expectedCredit(
  tx: Queryable,
  reference: string,
  accountCurrencyId: string,
): Promise<{ amount: string; transferId: string | null } | null> {
  const rows = await tx.query<{ amount: string | null; transferId: string | null }>(
    `SELECT (SELECT sum(p.amount)::text FROM journal_entries j JOIN postings p ON p.journal_entry_id = j.id
              WHERE j.payroll_request_id = t.payroll_request_id AND j.kind = 'FX_CONVERSION' AND p.account_currency_id = $2) AS amount,
            t.id AS "transferId"
       FROM transfers t WHERE t.id = $1 AND t.transfer_type = 'PROCESSOR_TO_BANK'
     UNION ALL
     SELECT f.amount::text, NULL FROM account_fundings f WHERE f.id = $1 AND f.account_currency_id = $2`,
    [reference, accountCurrencyId],
  );
  const row = rows.find((candidate) => candidate.amount !== null);
  return row ? { amount: row.amount!, transferId: row.transferId } : null;
}

export type MatchedKind = 'PAYOUT' | 'RETURN' | 'CREDIT';

/** The booking already matched to `reference` (a payout, its return, a credit): its bank identity and the kinds of message that reported it. */
export async function matchedBooking(tx: Queryable, kind: MatchedKind, reference: string): Promise<{ identity: string; reportedIn: string[] } | null> {
  const [row] = await tx.query<{ identity: string; reportedIn: string[] }>(
    'SELECT bank_identity AS identity, reported_in AS "reportedIn" FROM bank_matched_bookings WHERE kind = $1 AND reference = $2',
    [kind, reference],
  );
  return row ?? null;
}

/** The same booking, reported by another kind of message. */
export async function addMatchedBookingReport(tx: Queryable, kind: MatchedKind, reference: string, messageKind: string): Promise<void> {
  await tx.query('UPDATE bank_matched_bookings SET reported_in = array_append(reported_in, $3) WHERE kind = $1 AND reference = $2', [
    kind,
    reference,
    messageKind,
  ]);
}

/** Records the booking matched to `reference`: the same booking reported again is then recognised by its identity. */
export async function recordMatchedBooking(
  tx: Queryable,
  booking: { kind: MatchedKind; reference: string; identity: string; msgId: string; messageKind: string; amount: string; bookedAt: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO bank_matched_bookings (kind, reference, bank_identity, reported_in, msg_id, amount, booked_at) VALUES ($1, $2, $3, ARRAY[$4], $5, $6, $7)
     ON CONFLICT (kind, reference) DO NOTHING`,
    [booking.kind, booking.reference, booking.identity, booking.messageKind, booking.msgId, booking.amount, booking.bookedAt],
  );
}

/** A payout still PROCESSING in its bank file, booked by the bank: COMPLETED there as a pain.002 ACSC would make it. */
export async function completeBankFileItem(tx: Queryable, transferId: string, msgId: string, at: Date): Promise<void> {
  await tx.query(`UPDATE bank_file_items SET status = 'COMPLETED', report_msg_id = $2, settled_at = $3 WHERE transfer_id = $1 AND status = 'PROCESSING'`, [
    transferId,
    msgId,
    at,
  ]);
}

export async function setTransferBankBooking(tx: Queryable, transferId: string, booking: components['schemas']['TransferBankBooking']): Promise<void> {
  await tx.query('UPDATE transfers SET bank_booking = $2::jsonb WHERE id = $1', [transferId, JSON.stringify(booking)]);
}

/** COMPLETED → RETURNED with the return, and the split's credit back; false when the payout is no longer COMPLETED. */
export async function returnTransfer(tx: Queryable, transferId: string, bankReturn: components['schemas']['TransferBankReturn']): Promise<boolean> {
  const rows = await tx.query<{ splitId: string | null }>(
    `UPDATE transfers SET status = 'RETURNED', bank_return = $2::jsonb, locked_until = NULL
      WHERE id = $1 AND status = 'COMPLETED' RETURNING amount_split_id AS "splitId"`,
    [transferId, JSON.stringify(bankReturn)],
  );
  const splitId = rows[0]?.splitId;
  if (rows.length === 0) return false;
  if (splitId) await tx.query('UPDATE amount_splits SET returned_source_currency_amount = $2 WHERE id = $1', [splitId, bankReturn.creditedAmount]);
  return true;
}

/** The ledger's balance of an account currency just before `before`: Σ its postings of the journal entries dated earlier. */
export async function ledgerBalanceBefore(tx: Queryable, accountCurrencyId: string, before: Date): Promise<string> {
  const [row] = await tx.query<{ balance: string }>(
    `SELECT COALESCE(sum(p.amount), 0)::text AS balance
       FROM postings p JOIN journal_entries j ON j.id = p.journal_entry_id
      WHERE p.account_currency_id = $1 AND j.created_at < $2`,
    [accountCurrencyId, before],
  );
  return row!.balance;
}

/**
 * Payouts from an account currency the bank reported paid (pain.002) and never booked, completed
 * before `completedBefore`: a payroll's (paid from its payroll account) and single payouts (paid
 * from the account itself) alike.
 */
export async function unbookedPayouts(
  tx: Queryable,
  accountCurrencyId: string,
  completedBefore: Date,
): Promise<{ transferId: string; endToEndId: string; amount: string; currencyCode: string; completedAt: Date }[]> {
  return tx.query(
    `SELECT * FROM (
       SELECT t.id AS "transferId", i.end_to_end_id AS "endToEndId", t.amount::text AS amount, t.currency_code AS "currencyCode", t.completed_at AS "completedAt"
         FROM transfers t
         JOIN bank_file_items i ON i.transfer_id = t.id
         JOIN payroll_requests r ON r.id = t.payroll_request_id
        WHERE t.status = 'COMPLETED' AND t.transfer_type = 'BANK_TO_BENEFICIARY' AND t.bank_booking IS NULL
          AND t.completed_at < $2 AND r.payroll_account_currency_id = $1
          AND NOT EXISTS (SELECT 1 FROM bank_exceptions e WHERE e.transfer_id = t.id AND e.kind = 'MISSING_BOOKING')
       UNION ALL
       SELECT p.id, i.end_to_end_id, p.amount::text, p.currency_code, p.completed_at
         FROM payouts p
         JOIN bank_file_items i ON i.transfer_id = p.id
        WHERE p.status = 'COMPLETED' AND p.bank_booking IS NULL AND p.completed_at < $2 AND p.account_currency_id = $1
          AND NOT EXISTS (SELECT 1 FROM bank_exceptions e WHERE e.transfer_id = p.id AND e.kind = 'MISSING_BOOKING')
     ) AS unbooked
     ORDER BY "completedAt" LIMIT 1000`,
    [accountCurrencyId, completedBefore],
  );
}
