import type { Decimal } from 'decimal.js';
import type { BookedLine } from '../domain/bankReconciliation.js';
import { Money } from '../domain/money.js';
import type { BankAccountOfOurs } from '../store/bankBooks.js';
import type { NewBankException } from '../store/bankExceptions.js';
import type { Queryable } from '../store/db.js';

/** One account's booked lines being applied: where they came from and the exceptions they raise. */
export interface LineContext {
  tx: Queryable;
  msgId: string;
  messageKind: 'camt.053' | 'camt.054';
  account: BankAccountOfOurs;
  now: Date;
  exceptions: NewBankException[];
}

/** Money at the account's scale, as the API writes it (never "-0.00"). */
export const atScale = (value: Decimal, decimals: number): string => (value.isZero() ? new Money(0) : value).toFixed(decimals);

/** An exception about one line, with its references and amounts. */
export function lineException(
  context: LineContext,
  line: BookedLine,
  found: { kind: NewBankException['kind']; detail: string; transferId?: string | null; expected?: Decimal | null },
): void {
  const { decimals } = context.account;
  const expected = found.expected ?? null;
  context.exceptions.push({
    kind: found.kind,
    detail: found.detail,
    accountCurrencyId: context.account.accountCurrencyId,
    transferId: found.transferId ?? null,
    endToEndId: line.endToEndId,
    bankReference: line.bankReference,
    entryReference: line.entryReference,
    creditDebit: line.creditDebit,
    bookedAmount: atScale(line.amount, decimals),
    expectedAmount: expected && atScale(expected, decimals),
    difference: expected && atScale(line.amount.minus(expected), decimals),
    currencyCode: line.currency,
    bookedAt: line.bookedAt,
  });
}

/** When the journal entries a booking causes are dated: its booking date, never later than now (the statement of that day counts them). */
export const ledgerTime = (line: BookedLine, now: Date): Date => (line.bookedAt < now ? line.bookedAt : now);
