import type { components } from '../../generated/api.js';
import type { TransferStatus } from '../domain/transfers.js';
import type { Queryable } from './db.js';

/**
 * The set-based side of matching the bank's bookings (a payroll day's statement books a payout per
 * entry): many payouts read, recorded and booked in one statement each. The rules stay in the use
 * case (src/usecases/bankBookBulk.ts); the rare kinds of booking go line by line (bankBooks.ts).
 */

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
