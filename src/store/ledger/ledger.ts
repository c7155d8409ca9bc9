import type { Decimal } from 'decimal.js';
import { notFound } from '../../domain/errors.js';
import { type JournalEntry, accountKey, movesMoney } from '../../domain/ledger/journal.js';
import { type FundedAccount, assertFundsCover } from '../../domain/ledger/ledger.js';
import { Money, formatExact } from '../../domain/money/money.js';
import { type PendingPosting, runningBalances } from '../../domain/ledger/statement.js';
import type { Queryable } from '../database/db.js';

/**
 * The ledger: every balance change of the service goes through this module. Each movement is one
 * journal entry of postings (src/domain/ledger/journalEntries.ts builds them, balanced per currency); a
 * posting to a customer's or the partner bank's account currency moves its balance and available
 * by the same amount, in the same statement. So balance and available always equal Σ postings,
 * and the postings of each currency sum to zero (checked again by the database at commit).
 * `ledger_entries` (the single-entry ledger before the journal) stays as history; nothing writes it any more.
 */

/** An entry and when it happened (the world loader replays history at its own dates). */
export interface DatedEntry {
  entry: JournalEntry;
  at: Date | string;
}

/**
 * The single place a balance changes: many entries in three round trips, whatever their number.
 * The account currencies moved are locked (in one order, so that two entries can never wait on
 * each other) and their balances read first; each posting to one of them stores the balance it
 * leaves (`balance_after`, the statement's running balance), in the order the postings get their
 * ids. Postings of one account currency therefore get increasing ids in the order they are
 * applied, and each balance_after is the previous one plus its amount.
 */
export async function postJournalEntries(tx: Queryable, dated: readonly DatedEntry[]): Promise<void> {
  const moving = dated.filter(({ entry }) => movesMoney(entry));
  if (moving.length === 0) return;
  // Ids drawn first, so that the entries and their postings go in one statement.
  const ids = await tx.query<{ id: string }>("SELECT nextval(pg_get_serial_sequence('journal_entries', 'id'))::text AS id FROM generate_series(1, $1)", [
    moving.length,
  ]);
  const entries = moving.map(({ entry, at }, index) => ({
    id: ids[index]!.id,
    kind: entry.kind,
    payroll_request_id: entry.refs.payrollRequestId ?? null,
    transfer_id: entry.refs.transferId ?? null,
    payout_id: entry.refs.payoutId ?? null,
    funding_id: entry.refs.fundingId ?? null,
    created_at: at,
  }));
  const pending = moving.flatMap(({ entry }, index) =>
    entry.postings.map((posting) => ({
      entryId: ids[index]!.id,
      posting,
      accountCurrencyId: 'accountCurrencyId' in posting.account ? posting.account.accountCurrencyId.toLowerCase() : null,
      amount: posting.amount,
    })),
  );
  const after = runningBalances(await lockBalances(tx, pending), pending);
  const postings = pending.map(({ entryId, posting, accountCurrencyId, amount }, seq) => ({
    seq,
    journal_entry_id: entryId,
    account_key: accountKey(posting.account),
    account_currency_id: accountCurrencyId,
    currency_code: posting.currency,
    amount: formatExact(amount),
    balance_after: after[seq] ? formatExact(after[seq]) : null,
  }));
  await tx.query(
    `WITH entries AS (
       INSERT INTO journal_entries (id, kind, payroll_request_id, transfer_id, payout_id, funding_id, created_at)
       SELECT id, kind, payroll_request_id, transfer_id, payout_id, funding_id, created_at
         FROM jsonb_to_recordset($1::jsonb) AS e(id bigint, kind text, payroll_request_id uuid, transfer_id uuid, payout_id uuid, funding_id uuid, created_at timestamptz)
       RETURNING id
     ), posted AS (
       INSERT INTO postings (journal_entry_id, account_key, account_currency_id, currency_code, amount, balance_after)
       SELECT journal_entry_id, account_key, account_currency_id, currency_code, amount, balance_after
         FROM jsonb_to_recordset($2::jsonb) AS p(seq integer, journal_entry_id bigint, account_key text, account_currency_id uuid, currency_code text, amount numeric, balance_after numeric)
        ORDER BY seq
       RETURNING account_currency_id, amount
     )
     UPDATE account_currencies ac SET balance = ac.balance + d.delta, available = ac.available + d.delta
       FROM (SELECT account_currency_id, sum(amount) AS delta FROM posted WHERE account_currency_id IS NOT NULL GROUP BY account_currency_id) d
      WHERE ac.id = d.account_currency_id`,
    [JSON.stringify(entries), JSON.stringify(postings)],
  );
}

/** Locks the account currencies the postings move, in id order, and reads their balances. */
async function lockBalances(tx: Queryable, postings: readonly PendingPosting[]): Promise<Map<string, Decimal>> {
  const accountCurrencyIds = [...new Set(postings.flatMap((posting) => (posting.accountCurrencyId ? [posting.accountCurrencyId] : [])))];
  if (accountCurrencyIds.length === 0) return new Map();
  const rows = await tx.query<{ id: string; balance: string }>(
    'SELECT id::text, balance::text FROM account_currencies WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE',
    [accountCurrencyIds],
  );
  return new Map(rows.map((row) => [row.id, new Money(row.balance)]));
}

export function postJournalEntry(tx: Queryable, entry: JournalEntry, at: Date): Promise<void> {
  return postJournalEntries(tx, [{ entry, at }]);
}

/**
 * Lock available → compare → post, written once: the account currency row is locked, `decide`
 * sees its available balance and may refuse (INSUFFICIENT_FUNDS, or accept's 409 shortfall)
 * before anything is written, then its entry is posted. The lock serialises concurrent debits of
 * one account, so two of them can never both pass the check.
 */
export async function postWithinAvailable(
  tx: Queryable,
  accountCurrencyId: string,
  decide: (funds: FundedAccount) => JournalEntry | null,
  at: Date,
): Promise<void> {
  const rows = await tx.query<{ available: string; currency_code: string; decimals: number }>(
    `SELECT ac.available::text, ac.currency_code, c.decimals
       FROM account_currencies ac JOIN currencies c ON c.code = ac.currency_code
      WHERE ac.id = $1 FOR NO KEY UPDATE OF ac`,
    [accountCurrencyId],
  );
  const account = rows[0];
  if (!account) throw notFound(`Account currency ${accountCurrencyId} not found`);
  const entry = decide({ available: new Money(account.available), currencyCode: account.currency_code, decimals: account.decimals });
  if (entry) await postJournalEntry(tx, entry, at);
}

/** A debit the available balance must cover (else 400 INSUFFICIENT_FUNDS): creation, a single payout. */
export function debitWithin(tx: Queryable, accountCurrencyId: string, amount: Money, entry: JournalEntry, at: Date): Promise<void> {
  return postWithinAvailable(
    tx,
    accountCurrencyId,
    (funds) => {
      assertFundsCover(funds, amount);
      return entry;
    },
    at,
  );
}

export interface LedgerMismatch {
  /** An account currency's id, or `currency <code>` when that currency's postings do not sum to zero. */
  id: string;
  balance: string;
  ledger_balance: string;
}

/**
 * What should never exist: an account currency whose balance or available differs from Σ its
 * postings, or a currency whose postings do not sum to zero over the whole ledger.
 */
export async function ledgerMismatches(tx: Queryable): Promise<LedgerMismatch[]> {
  return tx.query<LedgerMismatch>(
    `SELECT ac.id::text AS id, ac.balance::text AS balance, COALESCE(p.total, 0)::text AS ledger_balance
       FROM account_currencies ac
       LEFT JOIN (SELECT account_currency_id, sum(amount) AS total FROM postings WHERE account_currency_id IS NOT NULL GROUP BY account_currency_id) p
         ON p.account_currency_id = ac.id
      WHERE ac.balance <> COALESCE(p.total, 0) OR ac.available <> COALESCE(p.total, 0)
     UNION ALL
     SELECT 'currency ' || currency_code, sum(amount)::text, '0' FROM postings GROUP BY currency_code HAVING sum(amount) <> 0`,
  );
}
