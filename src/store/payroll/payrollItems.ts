import type { components } from '../../../generated/api.js';
import type { TransferStatus, TransferType } from '../../domain/payroll/transfers.js';
import type { Queryable } from '../database/db.js';
import { type TransferFee, payoutTransferIdOf } from './payrollRequests.js';

type Schemas = components['schemas'];

/**
 * A request's splits and transfers as their wire writers read them, a page at a time (a request of
 * any size) or by id (a batch's moves): every value as text, JSON columns as the JSON text they
 * hold, times as ISO text, so that the driver parses no JSON and builds no Date per row.
 */

/** Which page of a request's items: the next `limit` after the item at `afterPosition` (-1: from the first). */
export interface ItemsPage {
  requestId: string;
  afterPosition: number;
  limit: number;
}

/** An item with its place in the request's list, for the next page's keyset. */
export type Placed<T> = T & { position: number };

/** A timestamp as UTC ISO 8601 text with milliseconds truncated, as Date#toISOString writes it. */
const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A split as its wire writer reads it: every value as text, its snapshot as the JSON text the
 * column holds and its creation as ISO text. Read so for the pages of a request of any size: the
 * driver then parses no JSON and builds no Date per row.
 */
export interface AmountSplitRow {
  id: string;
  beneficiaryId: string;
  /** The BeneficiarySnapshot as JSON text. */
  beneficiarySnapshotJson: string;
  amountCurrencyType: Schemas['AmountCurrencyType'];
  sourceCurrencyAmount: string;
  amount: string;
  quotedSourceCurrencyAmount: string | null;
  quotedAmount: string | null;
  returnedSourceCurrencyAmount: string | null;
  purposeCode: string;
  payoutTransferId: string | null;
  createdAt: string;
}

/** A page of the request's splits, in their order, through the request's index. */
export async function findAmountSplitsPage(tx: Queryable, page: ItemsPage): Promise<Array<Placed<AmountSplitRow>>> {
  return tx.query<Placed<AmountSplitRow>>(
    `SELECT s.position, s.id, s.beneficiary_id AS "beneficiaryId",
            s.beneficiary_snapshot::text AS "beneficiarySnapshotJson", s.amount_currency_type AS "amountCurrencyType",
            s.source_currency_amount::text AS "sourceCurrencyAmount", s.amount::text AS "amount",
            s.quoted_source_currency_amount::text AS "quotedSourceCurrencyAmount", s.quoted_amount::text AS "quotedAmount",
            s.returned_source_currency_amount::text AS "returnedSourceCurrencyAmount", s.purpose_code AS "purposeCode",
            ${payoutTransferIdOf('s')} AS "payoutTransferId", ${iso('s.created_at')} AS "createdAt"
       FROM amount_splits s WHERE s.payroll_request_id = $1 AND s.position > $2 ORDER BY s.position LIMIT $3`,
    [page.requestId, page.afterPosition, page.limit],
  );
}

/**
 * A transfer as its wire writer reads it, the same way: values as text, its bank booking and
 * return as JSON text, its times as ISO text, and for a payout the split it pays (rule 4: the
 * instruction; null for a leg, or for a payout whose split is not written yet).
 */
export type TransferRow = TransferFee & {
  id: string;
  payrollRequestId: string;
  transferType: TransferType;
  status: TransferStatus;
  externalId: string | null;
  amount: string;
  currencyCode: string;
  executedAt: string | null;
  completedAt: string | null;
  failureReason: string | null;
  /** TransferBankBooking and TransferBankReturn as JSON text. */
  bankBookingJson: string | null;
  bankReturnJson: string | null;
  createdAt: string;
} & InstructedSplit &
  HeldByScreening;

/** Why screening held the payout out of its bank file: all null for a transfer never held. */
type HeldByScreening =
  | { holdHitId: string; holdState: 'OPEN' | 'RELEASED' | 'CONFIRMED'; holdList: 'OFAC_SDN' | 'UN_CONSOLIDATED'; holdEntryId: string; holdHeldAt: string }
  | { holdHitId: null; holdState: null; holdList: null; holdEntryId: null; holdHeldAt: null };

/** The split a payout pays, as its instruction shows it: all null for a leg. */
type InstructedSplit =
  | {
      splitId: string;
      splitBeneficiaryId: string;
      splitSourceCurrencyAmount: string;
      /** The snapshot's id and names (the instruction's PayoutBeneficiarySnapshot). */
      snapshotId: string;
      snapshotFirstName: string;
      snapshotLastName: string;
      snapshotDisplayName: string;
    }
  | {
      splitId: null;
      splitBeneficiaryId: null;
      splitSourceCurrencyAmount: null;
      snapshotId: null;
      snapshotFirstName: null;
      snapshotLastName: null;
      snapshotDisplayName: null;
    };

/**
 * Where a transfer's row is read from: the transfer, the split it pays (a split of the same
 * request) and screening's hold on it. itemsVersionOf covers every row version read here.
 */
const TRANSFER_SOURCES = `FROM transfers t
       LEFT JOIN amount_splits sp ON sp.id = t.amount_split_id AND sp.payroll_request_id = t.payroll_request_id
       LEFT JOIN screening_holds sh ON sh.transfer_id = t.id
       LEFT JOIN screening_hits shh ON shh.id = sh.hit_id`;

const TRANSFER_ROW = `t.id, t.payroll_request_id AS "payrollRequestId", t.transfer_type AS "transferType", t.status, t.external_id AS "externalId",
            t.amount::text AS "amount", t.currency_code AS "currencyCode", t.fee_id AS "feeId", t.fee_amount::text AS "feeAmount",
            t.final_internal_fee::text AS "finalInternalFee", ${iso('t.executed_at')} AS "executedAt", ${iso('t.completed_at')} AS "completedAt",
            t.failure_reason AS "failureReason", t.bank_booking::text AS "bankBookingJson", t.bank_return::text AS "bankReturnJson",
            ${iso('t.created_at')} AS "createdAt", sp.id AS "splitId", sp.beneficiary_id AS "splitBeneficiaryId",
            sp.source_currency_amount::text AS "splitSourceCurrencyAmount", sp.beneficiary_snapshot->>'id' AS "snapshotId",
            sp.beneficiary_snapshot->>'firstName' AS "snapshotFirstName", sp.beneficiary_snapshot->>'lastName' AS "snapshotLastName",
            sp.beneficiary_snapshot->>'displayName' AS "snapshotDisplayName", sh.hit_id AS "holdHitId", shh.state AS "holdState",
            shh.list AS "holdList", shh.entry_id AS "holdEntryId", ${iso('sh.held_at')} AS "holdHeldAt"
       ${TRANSFER_SOURCES}`;

/** A page of the request's transfers, in their order, each with the split it pays. */
export async function findTransfersPage(tx: Queryable, page: ItemsPage): Promise<Array<Placed<TransferRow>>> {
  return tx.query<Placed<TransferRow>>(`SELECT t.position, ${TRANSFER_ROW} WHERE t.payroll_request_id = $1 AND t.position > $2 ORDER BY t.position LIMIT $3`, [
    page.requestId,
    page.afterPosition,
    page.limit,
  ]);
}

/** Transfers of payroll requests by id (with the customer whose request each belongs to), in the order of their requests' lists. */
export async function findTransferRows(tx: Queryable, ids: readonly string[]): Promise<Array<TransferRow & { customerId: string }>> {
  return tx.query(
    `SELECT r.customer_id AS "customerId", ${TRANSFER_ROW}
       JOIN payroll_requests r ON r.id = t.payroll_request_id
      WHERE t.id = ANY($1::uuid[]) ORDER BY t.payroll_request_id, t.position`,
    [ids],
  );
}

/**
 * What names the state of a request's items as a reader's snapshot sees them: a digest of the
 * physical address and creating transaction of every row version their writers read (the splits,
 * and each transfer with the rows of TRANSFER_SOURCES). A row version never changes (an update
 * writes a new one, at a new address, by another transaction), and no two versions share both, so
 * two snapshots with the same digest see the same items.
 */
export async function itemsVersionOf(tx: Queryable, requestId: string): Promise<string> {
  const [row] = await tx.query<{ version: string }>(
    `SELECT md5(coalesce((SELECT string_agg(s.ctid::text || s.xmin::text, ',' ORDER BY s.position) FROM amount_splits s WHERE s.payroll_request_id = $1), '')
                || '/' ||
                coalesce((SELECT string_agg(concat_ws(':', t.ctid, t.xmin, sh.ctid, sh.xmin, shh.ctid, shh.xmin), ',' ORDER BY t.position, sh.hit_id)
                            ${TRANSFER_SOURCES} WHERE t.payroll_request_id = $1), '')) AS version`,
    [requestId],
  );
  return row!.version;
}
