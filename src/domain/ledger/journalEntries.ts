import type { Decimal } from 'decimal.js';
import { type JournalEntry, type JournalRefs, type LedgerAccount, journalEntry, move } from './journal.js';
import type { AdjustmentSettlement, FxRecordFigures } from '../payroll/settlement.js';

/**
 * The posting set of every money movement of a payroll request and of a single payout. Each is a
 * sum of `move`s, so each balances by construction; the builder checks it anyway.
 *
 * A payroll request's money: the customer's source account → IN_TRANSIT:PROCESSOR (creation, and
 * the accept top-up) → fee revenue (processor leg) and IN_TRANSIT:BANK (bank leg) → EXTERNAL in
 * the source currency (FX conversion) while EXTERNAL → the partner-bank payroll account the quoted
 * payouts and → FX_RESULT the platform's gain or loss in the payroll currency → EXTERNAL (payouts).
 */

const IN_TRANSIT_PROCESSOR: LedgerAccount = { kind: 'IN_TRANSIT', leg: 'PROCESSOR' };
const IN_TRANSIT_BANK: LedgerAccount = { kind: 'IN_TRANSIT', leg: 'BANK' };
const EXTERNAL: LedgerAccount = { kind: 'EXTERNAL' };
const FX_RESULT: LedgerAccount = { kind: 'FX_RESULT' };
const fee = (kind: 'SPREAD' | 'PROCESSOR' | 'BANK' | 'PAYOUT' | 'INTERNAL'): LedgerAccount => ({ kind: 'FEE_REVENUE', fee: kind });
const customer = (accountCurrencyId: string): LedgerAccount => ({ kind: 'CUSTOMER', accountCurrencyId });

/** The two account currencies of a payroll request and their currencies. */
export interface PayrollLedger {
  /** The customer's source account currency. */
  sourceAccountCurrencyId: string;
  sourceCurrency: string;
  /** The partner-bank payroll account currency. */
  payrollAccountCurrencyId: string;
  payrollCurrency: string;
}

/** The fees the feeHash locked, in the source currency. */
export interface LockedFees {
  spreadFee: Decimal;
  processorFee: Decimal;
  bankFee: Decimal;
}

/** Creation: the total (amount + fees) leaves the customer's account for the processor leg. */
export function payrollCreated(ledger: PayrollLedger, totalAmount: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('PAYROLL_CREATED', move(customer(ledger.sourceAccountCurrencyId), IN_TRANSIT_PROCESSOR, ledger.sourceCurrency, totalAmount), refs);
}

/** Cancel (before accept): the exact reverse of the creation debit. */
export function payrollCancelled(ledger: PayrollLedger, totalAmount: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('PAYROLL_CANCELLED', move(IN_TRANSIT_PROCESSOR, customer(ledger.sourceAccountCurrencyId), ledger.sourceCurrency, totalAmount), refs);
}

/** Accept: a top-up follows the creation debit, an excess returns; null when nothing moves. */
export function acceptSettled(ledger: PayrollLedger, settlement: AdjustmentSettlement, refs: JournalRefs): JournalEntry | null {
  if (settlement.kind === 'NONE') return null;
  const source = customer(ledger.sourceAccountCurrencyId);
  return settlement.kind === 'TOP_UP'
    ? journalEntry('ACCEPT_TOP_UP', move(source, IN_TRANSIT_PROCESSOR, ledger.sourceCurrency, settlement.amount), refs)
    : journalEntry('ACCEPT_REFUND', move(IN_TRANSIT_PROCESSOR, source, ledger.sourceCurrency, settlement.amount), refs);
}

function feePostings(from: LedgerAccount, currency: string, fees: LockedFees) {
  return [
    ...move(from, fee('SPREAD'), currency, fees.spreadFee),
    ...move(from, fee('PROCESSOR'), currency, fees.processorFee),
    ...move(from, fee('BANK'), currency, fees.bankFee),
  ];
}

/** PROCESSOR_INTERNAL_DEBIT completed: the processor took the total; the fees are earned. */
export function processorLegCompleted(ledger: PayrollLedger, fees: LockedFees, refs: JournalRefs): JournalEntry {
  return journalEntry('PROCESSOR_LEG_COMPLETED', feePostings(IN_TRANSIT_PROCESSOR, ledger.sourceCurrency, fees), refs);
}

/** PROCESSOR_INTERNAL_DEBIT failed: the whole final total returns to the customer. */
export function processorLegFailed(ledger: PayrollLedger, totalAmount: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('PROCESSOR_LEG_FAILED', move(IN_TRANSIT_PROCESSOR, customer(ledger.sourceAccountCurrencyId), ledger.sourceCurrency, totalAmount), refs);
}

/** PROCESSOR_TO_BANK completed: the amount for exchange is on the bank leg. */
export function bankLegCompleted(ledger: PayrollLedger, sourceAmountForExchange: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('BANK_LEG_COMPLETED', move(IN_TRANSIT_PROCESSOR, IN_TRANSIT_BANK, ledger.sourceCurrency, sourceAmountForExchange), refs);
}

/** PROCESSOR_TO_BANK failed: the fees earned are given back and the whole final total returns. */
export function bankLegFailed(ledger: PayrollLedger, fees: LockedFees, sourceAmountForExchange: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('BANK_LEG_FAILED', everythingBack(ledger, fees, IN_TRANSIT_PROCESSOR, sourceAmountForExchange), refs);
}

/** An operator fails the request once the bank leg was funded: the fees are given back, the bank leg's amount returns. */
export function bankLegReturned(ledger: PayrollLedger, fees: LockedFees, sourceAmountForExchange: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('PAYROLL_FAILED_RETURNED', everythingBack(ledger, fees, IN_TRANSIT_BANK, sourceAmountForExchange), refs);
}

/** The fees earned given back and `held` (what remains of the final total on one leg) credited to the customer. */
function everythingBack(ledger: PayrollLedger, fees: LockedFees, held: LedgerAccount, amount: Decimal) {
  const source = customer(ledger.sourceAccountCurrencyId);
  const feesBack = feePostings(source, ledger.sourceCurrency, fees).map((posting) => ({ ...posting, amount: posting.amount.negated() }));
  return [...feesBack, ...move(held, source, ledger.sourceCurrency, amount)];
}

/**
 * FX record: the source amount leaves to the FX counterparty; the payroll currency arrives, the
 * quoted payouts in the partner-bank account and the difference (signed) in FX_RESULT.
 */
export function fxConverted(ledger: PayrollLedger, fx: FxRecordFigures, refs: JournalRefs): JournalEntry {
  const platformBank: LedgerAccount = { kind: 'PLATFORM_BANK', accountCurrencyId: ledger.payrollAccountCurrencyId };
  return journalEntry(
    'FX_CONVERSION',
    [
      ...move(IN_TRANSIT_BANK, EXTERNAL, ledger.sourceCurrency, fx.fromAmount),
      ...move(EXTERNAL, platformBank, ledger.payrollCurrency, fx.payoutAmount),
      ...move(EXTERNAL, FX_RESULT, ledger.payrollCurrency, fx.fxResultAmount),
    ],
    refs,
  );
}

/** A payout COMPLETED: its quoted amount leaves the partner-bank account for the beneficiary. */
export function payoutSent(ledger: PayrollLedger, amount: Decimal, refs: JournalRefs): JournalEntry {
  const platformBank: LedgerAccount = { kind: 'PLATFORM_BANK', accountCurrencyId: ledger.payrollAccountCurrencyId };
  return journalEntry('PAYOUT_SENT', move(platformBank, EXTERNAL, ledger.payrollCurrency, amount), refs);
}

/**
 * A payout FAILED: the bank never paid it, so its payroll amount stays in the partner-bank account
 * (the platform's own now, as a returned payout's is), and the customer is credited what it paid
 * for that beneficiary at the accepted quote, from the platform's FX result in the source currency.
 * The partner-bank account thus moves only as the bank's does, and its statements reconcile.
 */
export function payoutFailedCreditBack(ledger: PayrollLedger, creditBack: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('PAYOUT_FAILED_CREDIT_BACK', move(FX_RESULT, customer(ledger.sourceAccountCurrencyId), ledger.sourceCurrency, creditBack), refs);
}

/** A single payout's figures, all in its one currency. */
export interface SinglePayout {
  accountCurrencyId: string;
  currency: string;
  amount: Decimal;
  fee: Decimal;
  internalFee: Decimal;
}

const payoutTotal = (payout: SinglePayout) => payout.amount.plus(payout.fee).plus(payout.internalFee);

/** Single payout created: its total (amount + fees) is held on the bank leg. */
export function singlePayoutDebited(payout: SinglePayout, refs: JournalRefs): JournalEntry {
  return journalEntry('SINGLE_PAYOUT_DEBITED', move(customer(payout.accountCurrencyId), IN_TRANSIT_BANK, payout.currency, payoutTotal(payout)), refs);
}

/** Single payout COMPLETED: the amount leaves, the provider's and the platform's fees are earned. */
export function singlePayoutSent(payout: SinglePayout, refs: JournalRefs): JournalEntry {
  return journalEntry(
    'SINGLE_PAYOUT_SENT',
    [
      ...move(IN_TRANSIT_BANK, EXTERNAL, payout.currency, payout.amount),
      ...move(IN_TRANSIT_BANK, fee('PAYOUT'), payout.currency, payout.fee),
      ...move(IN_TRANSIT_BANK, fee('INTERNAL'), payout.currency, payout.internalFee),
    ],
    refs,
  );
}

/** Single payout FAILED: its whole total returns to the account currency. */
export function singlePayoutRefunded(payout: SinglePayout, refs: JournalRefs): JournalEntry {
  return journalEntry('SINGLE_PAYOUT_REFUNDED', move(IN_TRANSIT_BANK, customer(payout.accountCurrencyId), payout.currency, payoutTotal(payout)), refs);
}

/**
 * A single payout the bank returned after paying it: what the bank brought back (its amount less the
 * return's charges) arrives in the account currency it was paid from; the fees stay earned, as a
 * payroll payout's do.
 */
export function singlePayoutReturned(payout: Pick<SinglePayout, 'accountCurrencyId' | 'currency'>, returned: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('PAYOUT_RETURNED', move(EXTERNAL, customer(payout.accountCurrencyId), payout.currency, returned), refs);
}

/** World loading: an account currency's opening balance arrives from outside. */
export function openingBalance(account: LedgerAccount, currency: string, amount: Decimal): JournalEntry {
  return journalEntry('OPENING_BALANCE', move(EXTERNAL, account, currency, amount));
}

/** A funding (admin): money arrives from outside into a customer's account currency. */
export function funded(accountCurrencyId: string, currency: string, amount: Decimal, refs: JournalRefs): JournalEntry {
  return journalEntry('FUNDING', move(EXTERNAL, customer(accountCurrencyId), currency, amount), refs);
}

/** The charges the bank booked with a payout: they leave the partner-bank account, an expense of the platform. */
export function bankChargesBooked(ledger: PayrollLedger, charges: Decimal, refs: JournalRefs): JournalEntry {
  const platformBank: LedgerAccount = { kind: 'PLATFORM_BANK', accountCurrencyId: ledger.payrollAccountCurrencyId };
  return journalEntry('BANK_CHARGES', move(platformBank, { kind: 'BANK_CHARGES' }, ledger.payrollCurrency, charges), refs);
}

/**
 * A paid payout the bank returned, as two entries: what the bank credited back arrives in the
 * partner-bank account from outside (so that account follows the bank's, dated at the booking),
 * and the customer is credited, as for a failed payout, from the platform's FX result in the
 * source currency (dated when it is made, so that it is on the customer's statement from then on).
 */
export function payoutReturned(
  ledger: PayrollLedger,
  returnedAmount: Decimal,
  creditBack: Decimal,
  refs: JournalRefs,
): { toBank: JournalEntry; creditBack: JournalEntry } {
  const platformBank: LedgerAccount = { kind: 'PLATFORM_BANK', accountCurrencyId: ledger.payrollAccountCurrencyId };
  return {
    toBank: journalEntry('PAYOUT_RETURNED', move(EXTERNAL, platformBank, ledger.payrollCurrency, returnedAmount), refs),
    creditBack: journalEntry('PAYOUT_RETURNED', move(FX_RESULT, customer(ledger.sourceAccountCurrencyId), ledger.sourceCurrency, creditBack), refs),
  };
}
