import type { PartnerAccountBookings, PartnerAccountCredit } from '../../domain/bank/bankBooks.js';
import type { Queryable } from '../database/db.js';

/**
 * What arrived in a platform partner-bank account (`PLATFORM_BANK:<accountCurrencyId>`, the account
 * with that IBAN and no customer) in a period, and its balance before: the part of the bank's books
 * that the bank learns from outside the payment files. The bank simulator reads it to write its
 * statements (a real bank knows its own books; the simulated one borrows ours). Debits are not
 * here: the bank books payouts from the payment files it executes. Null when no partner-bank
 * account has that IBAN in that currency.
 */
export async function partnerAccountBookings(
  db: Queryable,
  account: { iban: string; currency: string },
  from: Date,
  to: Date,
): Promise<PartnerAccountBookings | null> {
  // Amounts at the currency's minor units, as a bank writes them (the ledger keeps 3652.00 as 3652).
  const [found] = await db.query<{ id: string; decimals: number }>(
    `SELECT ac.id, c.decimals FROM account_currencies ac JOIN accounts a ON a.id = ac.account_id JOIN currencies c ON c.code = ac.currency_code
      WHERE a.customer_id IS NULL AND upper(replace(a.iban, ' ', '')) = upper(replace($1, ' ', '')) AND ac.currency_code = $2`,
    [account.iban, account.currency],
  );
  if (!found) return null;
  const [before] = await db.query<{ balance: string }>(
    `SELECT round(coalesce(sum(p.amount), 0), $3)::text AS balance
       FROM postings p JOIN journal_entries j ON j.id = p.journal_entry_id
      WHERE p.account_currency_id = $1 AND j.created_at < $2`,
    [found.id, from, found.decimals],
  );
  const credits = await db.query<PartnerAccountCredit>(
    `SELECT j.id::text AS "journalEntryId", j.kind, round(p.amount, $4)::text AS amount, j.created_at AS "bookedAt",
            j.payroll_request_id AS "payrollRequestId", j.funding_id AS "fundingId",
            (SELECT t.id FROM transfers t
              WHERE t.payroll_request_id = j.payroll_request_id AND t.transfer_type = 'PROCESSOR_TO_BANK'
              ORDER BY t.created_at, t.id LIMIT 1) AS "transferId"
       FROM postings p JOIN journal_entries j ON j.id = p.journal_entry_id
      WHERE p.account_currency_id = $1 AND p.amount > 0 AND j.kind IN ('FX_CONVERSION', 'FUNDING', 'OPENING_BALANCE')
        AND j.created_at >= $2 AND j.created_at < $3
      ORDER BY p.id`,
    [found.id, from, to, found.decimals],
  );
  return { accountCurrencyId: found.id, balanceBefore: before!.balance, credits };
}

/** The reader the simulated bank's statements take: `partnerAccountBookings` on this database. */
export function partnerAccountBookingsOf(db: Queryable) {
  return (account: { iban: string; currency: string }, from: Date, to: Date) => partnerAccountBookings(db, account, from, to);
}
