import type { Queryable } from '../database/db.js';

/**
 * What the bank booked (its camt.054/053 messages), by message and by account: the messages applied,
 * our accounts at the bank, the credits we expect into them, the ledger a statement is reconciled
 * against and the payouts no statement booked. The bookings matched to payouts are
 * src/store/bank/bankBookings.ts. SQL only; the rules are in src/domain/bank/bankReconciliation.ts and the use case.
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
