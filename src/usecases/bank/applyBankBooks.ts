import { randomUUID } from 'node:crypto';
import type { BankAccountReport, BankToCustomerMessage } from '../../domain/bank/bankBooks.js';
import type { BankFile, BankMessageOutcome } from '../../domain/bank/bankMessages.js';
import { type StatementFrame, statementFrame } from '../../domain/bank/bankReconciliation.js';
import { BankCalendar } from '../../domain/calendar/bankCalendar.js';
import { calendarRulesOf } from '../../store/calendar/bankCalendars.js';
import { Money } from '../../domain/money/money.js';
import {
  type BankAccountOfOurs,
  countBankBooksMessage,
  findAccountByIban,
  ledgerBalanceBefore,
  recordBankBooksMessage,
  unbookedPayouts,
} from '../../store/bank/bankBooks.js';
import { insertBankExceptions, insertBankStatement, resolveMissingBookingsBookedIn, settleStatementStatus } from '../../store/bank/bankExceptions.js';
import type { Queryable } from '../../store/database/db.js';
import { type LineContext, atScale } from './bankBookContext.js';
import { applyBookedEntries } from './bankBookings.js';
import type { UseCaseDeps } from '../deps.js';

export interface BankBooksDeps extends Pick<UseCaseDeps, 'db' | 'clock'> {
  /** BANK_BOOKING_GRACE_DAYS: business days a payout reported paid may wait for its booking. */
  bookingGraceDays: number;
}

/**
 * What the bank booked, applied once per message (by MsgId, recorded with the file's name and
 * sha256), inside the bank message's transaction: every booked entry matched to a payout (booked, completed, its
 * charges posted), a return (the payout RETURNED, the customer credited back) or a credit into the
 * account; each camt.053 statement reconciled against the ledger. Whatever does not match becomes
 * an exception. A message naming an account that is not ours is rejected and changes nothing.
 */
export async function applyBankBooks(
  tx: Queryable,
  deps: BankBooksDeps,
  message: BankToCustomerMessage,
  file: BankFile,
  now: Date,
): Promise<BankMessageOutcome> {
  const accounts = await accountsOf(tx, message.reports);
  if (typeof accounts === 'string') return { kind: 'rejected', reason: accounts };
  const fresh = await recordBankBooksMessage(tx, {
    msgId: message.msgId,
    kind: message.kind,
    fileName: file.fileName,
    sha256: file.sha256,
    receivedAt: file.receivedAt,
    appliedAt: now,
  });
  if (!fresh) return { kind: 'already-applied' };
  let entries = 0;
  let exceptions = 0;
  for (const [index, report] of message.reports.entries()) {
    const context: LineContext = { tx, msgId: message.msgId, messageKind: message.kind, account: accounts[index]!, now, exceptions: [] };
    entries += await applyReport(context, report, message);
    exceptions += await recordFindings(deps, context, report, message);
  }
  // A payout this message booked (or returned) was paid after all: its MISSING_BOOKING is answered.
  await resolveMissingBookingsBookedIn(tx, message.msgId, now);
  await countBankBooksMessage(tx, message.msgId, entries, exceptions);
  return { kind: 'applied', entries, exceptions };
}

/** Each report's account of ours, or why the message is refused. */
async function accountsOf(tx: Queryable, reports: readonly BankAccountReport[]): Promise<BankAccountOfOurs[] | string> {
  if (reports.length === 0) return 'The message reports no account';
  const accounts: BankAccountOfOurs[] = [];
  for (const report of reports) {
    const iban = report.account.iban;
    const currency = report.account.currency ?? report.entries[0]?.currency ?? report.balances[0]?.currency ?? null;
    const account = iban ? await findAccountByIban(tx, iban, currency) : null;
    if (!account) {
      const named = iban ? `IBAN ${iban}${currency ? ` in ${currency}` : ''}` : `account ${report.account.otherId ?? '(none)'} without an IBAN`;
      return `Report ${report.reportId} is of ${named}, which is none of our accounts`;
    }
    // A statement's balances in another currency than the account's would reconcile nothing.
    const foreign = report.balances.find((balance) => balance.currency !== account.currencyCode);
    if (foreign) {
      return `Report ${report.reportId}: its ${foreign.type} balance is in ${foreign.currency}, and account IBAN ${iban} is in ${account.currencyCode}`;
    }
    accounts.push(account);
  }
  return accounts;
}

/** The report's booked entries (the common payout bookings set-based, the rest line by line); returns how many entries it has. */
async function applyReport(context: LineContext, report: BankAccountReport, message: BankToCustomerMessage): Promise<number> {
  const createdAt = new Date(message.createdAt);
  const fallback = Number.isNaN(createdAt.getTime()) ? context.now : createdAt;
  await applyBookedEntries(context, report.entries, fallback);
  return report.entries.length;
}

/** The exceptions the report raised; a statement is recorded with its reconciliation first. Returns how many were recorded. */
async function recordFindings(deps: BankBooksDeps, context: LineContext, report: BankAccountReport, message: BankToCustomerMessage): Promise<number> {
  const { tx, now } = context;
  if (message.kind !== 'camt.053') return insertBankExceptions(tx, { msgId: message.msgId, statementId: null, at: now }, context.exceptions);
  const frame = statementFrame(report, now);
  const statementId = randomUUID();
  const ledger = new Money(await ledgerBalanceBefore(tx, context.account.accountCurrencyId, frame.endsBefore));
  const { decimals, currencyCode } = context.account;
  await insertBankStatement(tx, {
    id: statementId,
    msgId: message.msgId,
    reportId: report.reportId,
    accountCurrencyId: context.account.accountCurrencyId,
    iban: report.account.iban ?? '',
    currencyCode,
    date: frame.date,
    endsAt: frame.endsBefore,
    openingBalance: frame.opening && atScale(frame.opening, decimals),
    closingBalance: frame.closing && atScale(frame.closing, decimals),
    ledgerBalance: atScale(ledger, decimals),
    entryCount: report.entries.length,
    exceptionCount: 0,
    status: 'RECONCILED',
    createdAt: now,
  });
  balanceDrift(context, frame, ledger);
  await missingBookings(deps, context, frame);
  const recorded = await insertBankExceptions(tx, { msgId: message.msgId, statementId, at: now }, context.exceptions);
  await settleStatementStatus(tx, statementId);
  return recorded;
}

/** The closing booked balance against the ledger's balance at the statement's end. */
function balanceDrift(context: LineContext, frame: StatementFrame, ledger: Money): void {
  if (frame.closing === null || frame.closing.equals(ledger)) return;
  const { decimals, currencyCode, accountCurrencyId } = context.account;
  const difference = frame.closing.minus(ledger);
  context.exceptions.push({
    kind: 'BALANCE_DRIFT',
    detail: `Closing booked balance ${atScale(frame.closing, decimals)} ${currencyCode} differs from the ledger's ${atScale(ledger, decimals)} ${currencyCode} at the statement's end by ${atScale(difference, decimals)}`,
    accountCurrencyId,
    transferId: null,
    endToEndId: null,
    bankReference: null,
    entryReference: null,
    creditDebit: null,
    bookedAmount: atScale(frame.closing, decimals),
    expectedAmount: atScale(ledger, decimals),
    difference: atScale(difference, decimals),
    currencyCode,
    bookedAt: null,
  });
}

/** Payouts from this account that pain.002 reported paid more than the grace in business days before the statement's end, and no statement booked. */
async function missingBookings(deps: BankBooksDeps, context: LineContext, frame: StatementFrame): Promise<void> {
  const { accountCurrencyId, decimals } = context.account;
  const calendars = new Map<string, BankCalendar>();
  for (const payout of await unbookedPayouts(context.tx, accountCurrencyId, frame.endsBefore)) {
    let calendar = calendars.get(payout.currencyCode);
    if (!calendar) calendars.set(payout.currencyCode, (calendar = new BankCalendar(await calendarRulesOf(context.tx, payout.currencyCode))));
    if (calendar.plusBusinessDays(payout.completedAt, deps.bookingGraceDays) >= frame.endsBefore) continue;
    context.exceptions.push({
      kind: 'MISSING_BOOKING',
      detail: `Payout ${payout.transferId} (${payout.amount} ${payout.currencyCode}) was reported paid on ${payout.completedAt.toISOString()} and no statement booked it within ${deps.bookingGraceDays} business days`,
      accountCurrencyId,
      transferId: payout.transferId,
      endToEndId: payout.endToEndId,
      bankReference: null,
      entryReference: null,
      creditDebit: 'DBIT',
      bookedAmount: null,
      expectedAmount: atScale(new Money(payout.amount), decimals),
      difference: null,
      currencyCode: payout.currencyCode,
      bookedAt: null,
    });
  }
}
