import type { components } from '../../../generated/api.js';
import type { TransferStatus } from '../../domain/payroll/transfers.js';
import type { Queryable } from '../database/db.js';

/**
 * The bank's bookings matched to what we sent: the payouts (a payroll's and single ones) a booking
 * names by EndToEndId, the bookings already matched (bank_matched_bookings, so that the same booking
 * reported again is recognised), and what a booking or a return records on its payout. The common
 * case of a payroll day is set-based (many payouts read and booked in one statement each); the rare
 * kinds go one line at a time. SQL only: the rules are the use case's (src/usecases/bank/bankBookings.ts).
 */

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

/** A payroll payout a booking names, with the booking already matched to it, if any. */
export interface PayoutToBook {
  endToEndId: string;
  transferId: string;
  status: TransferStatus;
  amount: string;
  fileStatus: 'PROCESSING' | 'COMPLETED' | 'FAILED';
  payrollRequestId: string;
  matchedIdentity: string | null;
  reportedIn: string[] | null;
}

/** The payroll payouts named by `endToEndIds` (lower case, as our payment files write them), by their primary key. */
export async function payoutsToBook(tx: Queryable, endToEndIds: readonly string[]): Promise<PayoutToBook[]> {
  if (endToEndIds.length === 0) return [];
  return tx.query<PayoutToBook>(
    `SELECT i.end_to_end_id AS "endToEndId", t.id AS "transferId", t.status, t.amount::text AS amount, i.status AS "fileStatus",
            t.payroll_request_id AS "payrollRequestId", m.bank_identity AS "matchedIdentity", m.reported_in AS "reportedIn"
       FROM unnest($1::text[]) AS x(end_to_end_id)
       JOIN bank_file_items i ON i.end_to_end_id = x.end_to_end_id
       JOIN transfers t ON t.id = i.transfer_id
       LEFT JOIN bank_matched_bookings m ON m.kind = 'PAYOUT' AND m.reference = t.id::text
      WHERE t.payroll_request_id IS NOT NULL`,
    [endToEndIds],
  );
}

export interface NewPayoutBooking {
  transferId: string;
  identity: string;
  amount: string;
  bookedAt: Date;
  booking: components['schemas']['TransferBankBooking'];
}

/** Records the bookings matched to payouts and sets each transfer's `bank_booking`: two statements for all of them. */
export async function recordPayoutBookings(tx: Queryable, msgId: string, messageKind: string, bookings: readonly NewPayoutBooking[]): Promise<void> {
  if (bookings.length === 0) return;
  const rows = JSON.stringify(
    bookings.map((booking) => ({ id: booking.transferId, identity: booking.identity, amount: booking.amount, at: booking.bookedAt, booking: booking.booking })),
  );
  await tx.query(
    `INSERT INTO bank_matched_bookings (kind, reference, bank_identity, reported_in, msg_id, amount, booked_at)
     SELECT 'PAYOUT', x.id, x.identity, ARRAY[$2::text], $1, x.amount::numeric, x.at::timestamptz
       FROM jsonb_to_recordset($3::jsonb) AS x(id text, identity text, amount text, at text)
     ON CONFLICT (kind, reference) DO NOTHING`,
    [msgId, messageKind, rows],
  );
  await tx.query(`UPDATE transfers t SET bank_booking = x.booking FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, booking jsonb) WHERE t.id = x.id`, [rows]);
}

/** The same bookings, reported again by another kind of message. */
export async function addPayoutBookingReports(tx: Queryable, transferIds: readonly string[], messageKind: string): Promise<void> {
  if (transferIds.length === 0) return;
  await tx.query(`UPDATE bank_matched_bookings SET reported_in = array_append(reported_in, $2) WHERE kind = 'PAYOUT' AND reference = ANY($1::text[])`, [
    transferIds,
    messageKind,
  ]);
}
