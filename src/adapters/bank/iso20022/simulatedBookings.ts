import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { BankEntry, BankToCustomerMessage, PartnerAccountCredit } from '../../../domain/bank/bankBooks.js';
import { buildCamt, camtChunks } from './camtBuild.js';
import { compactUuid } from './text.js';

/** The simulated bank's account of a payment file's debtor: the platform's partner-bank account. */
export interface SimulatedAccount {
  iban: string;
  currency: string;
}

/** A payment the simulated bank executed (settled ACSC in its pain.002). */
export interface ExecutedPayment {
  endToEndId: string;
  amount: string;
}

/** A file the simulated bank writes in the service's inbox, named `<msgId>.xml`. */
export interface SimulatedFile {
  msgId: string;
  xml: string;
}

/** The simulated bank's return reason: the beneficiary's account is closed. */
const RETURN_REASON = { code: 'AC04', text: 'Account closed: the beneficiary bank returned the payment' };

/**
 * The camt.054 booking the payments of one settled payment file: one DBIT entry per payment, its
 * EndToEndId the pain.001's, booked now. A charge (`charge`, on every `chargeEvery`-th payment) is
 * taken with the payment: the entry's amount is the payment plus the charge, the charge in `Chrgs`.
 */
export function bookingNotification(input: {
  account: SimulatedAccount;
  originalMsgId: string;
  payments: readonly ExecutedPayment[];
  bookedAt: Date;
  charge?: string | undefined;
  chargeEvery?: number | undefined;
}): SimulatedFile {
  const { account, bookedAt } = input;
  const charged = (index: number) => input.charge !== undefined && index % (input.chargeEvery ?? 1) === 0;
  const entries = input.payments.map((payment, index) => paymentEntry(account, payment, bookedAt, charged(index) ? input.charge : undefined));
  return notification(`N${input.originalMsgId}`, account, bookedAt, entries);
}

/** One executed payment as the bank books it: a DBIT entry under its EndToEndId, a charge taken with it. */
export function paymentEntry(account: SimulatedAccount, payment: ExecutedPayment, bookedAt: Date, charge?: string | undefined): BankEntry {
  return entry(account, {
    reference: `B${payment.endToEndId}`,
    amount: charge === undefined ? payment.amount : sumAtScale([payment.amount, charge]),
    creditDebit: 'DBIT',
    bookedAt,
    // At the payment's minor units too: a charge of 2.5 on 1000.25 is 2.50.
    charges: charge === undefined ? null : new Decimal(charge).toFixed(Math.max(scaleOf(charge), scaleOf(payment.amount))),
    transaction: { endToEndId: payment.endToEndId, amount: payment.amount },
  });
}

/** The camt.054 of a payment the beneficiary's bank sent back: a CRDT entry with the return's reason (AC04). */
export function returnNotification(account: SimulatedAccount, payment: ExecutedPayment, bookedAt: Date): SimulatedFile {
  const returned = entry(account, {
    reference: `R${payment.endToEndId}`,
    amount: payment.amount,
    creditDebit: 'CRDT',
    bookedAt,
    charges: null,
    transaction: { endToEndId: payment.endToEndId, amount: payment.amount },
  });
  returned.transactions[0]!.returnReason = RETURN_REASON;
  return notification(`R${payment.endToEndId}`, account, bookedAt, [returned]);
}

/**
 * A credit into the account that the ledger recorded (the move of a payroll's funds into the bank,
 * a funding), as the bank books it: a CRDT entry whose EndToEndId is the move-to-bank transfer's id
 * (compact, as in pain.001), or for a funding the funding's id; AcctSvcrRef `C<journal entry id>`.
 */
export function creditEntry(account: SimulatedAccount, credit: PartnerAccountCredit): BankEntry {
  const reference = credit.transferId ?? credit.fundingId;
  return entry(account, {
    reference: `C${credit.journalEntryId}`,
    amount: credit.amount,
    creditDebit: 'CRDT',
    bookedAt: credit.bookedAt,
    charges: null,
    transaction: { endToEndId: reference ? compactUuid(reference) : null, amount: credit.amount },
  });
}

/**
 * The camt.053 statement of one account for a period: its opening balance (OPBD), the period's
 * entries and the closing balance (CLBD) they lead to. Written in pieces (a payroll day has one
 * entry per payout). Returns the closing balance, the next statement's opening one.
 */
export function statement(input: { account: SimulatedAccount; from: Date; to: Date; opening: string; entries: readonly BankEntry[]; createdAt: Date }): {
  msgId: string;
  chunks: Iterable<string>;
  closing: string;
} {
  const { account, from, to, entries } = input;
  const closing = entries.reduce(
    (sum, booked) => (booked.creditDebit === 'CRDT' ? sum.plus(booked.amount) : sum.minus(booked.amount)),
    new Decimal(input.opening),
  );
  const scale = Math.max(scaleOf(input.opening), ...entries.map((booked) => scaleOf(booked.amount)));
  const msgId = `T${createHash('sha256').update(`${account.iban} ${account.currency} ${from.toISOString()}`).digest('hex').slice(0, 32)}`;
  const day = (at: Date) => at.toISOString().slice(0, 10);
  const balance = (type: string, amount: Decimal, at: Date) => ({
    type,
    amount: amount.abs().toFixed(scale),
    currency: account.currency,
    creditDebit: amount.isNegative() ? ('DBIT' as const) : ('CRDT' as const),
    date: day(at),
  });
  const message: BankToCustomerMessage = {
    kind: 'camt.053',
    msgId,
    createdAt: dateTime(input.createdAt),
    reports: [
      {
        reportId: msgId,
        account: { iban: account.iban, otherId: null, currency: account.currency },
        period: { from: dateTime(from), to: dateTime(new Date(to.getTime() - 1000)) },
        balances: [balance('OPBD', new Decimal(input.opening), from), balance('CLBD', closing, to)],
        entries: [...entries],
      },
    ],
  };
  return { msgId, chunks: camtChunks(message), closing: closing.toFixed(scale) };
}

function notification(msgId: string, account: SimulatedAccount, at: Date, entries: BankEntry[]): SimulatedFile {
  const id = msgId.slice(0, 35);
  const message: BankToCustomerMessage = {
    kind: 'camt.054',
    msgId: id,
    createdAt: dateTime(at),
    reports: [{ reportId: id, account: { iban: account.iban, otherId: null, currency: account.currency }, period: null, balances: [], entries }],
  };
  return { msgId: id, xml: buildCamt(message) };
}

function entry(
  account: SimulatedAccount,
  booked: {
    reference: string;
    amount: string;
    creditDebit: 'CRDT' | 'DBIT';
    bookedAt: Date;
    charges: string | null;
    transaction: { endToEndId: string | null; amount: string };
  },
): BankEntry {
  const reference = booked.reference.slice(0, 35);
  return {
    entryReference: null,
    accountServicerReference: reference,
    amount: booked.amount,
    currency: account.currency,
    creditDebit: booked.creditDebit,
    reversal: false,
    status: 'BOOK',
    bookingDate: dateTime(booked.bookedAt),
    valueDate: booked.bookedAt.toISOString().slice(0, 10),
    charges: booked.charges,
    transactions: [
      {
        endToEndId: booked.transaction.endToEndId,
        accountServicerReference: reference,
        amount: booked.transaction.amount,
        currency: account.currency,
        creditDebit: booked.creditDebit,
        returnReason: null,
        charges: null,
      },
    ],
  };
}

/** The digits after the point of a decimal string: a sum keeps the minor units of its terms (10.00 + 5 is 15.00). */
function scaleOf(value: string): number {
  const point = value.indexOf('.');
  return point < 0 ? 0 : value.length - point - 1;
}

function sumAtScale(values: readonly string[]): string {
  return values.reduce((sum, value) => sum.plus(value), new Decimal(0)).toFixed(Math.max(...values.map(scaleOf)));
}

/** xs:dateTime in UTC, to the second. */
function dateTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
