/**
 * The one place an enum of the API becomes words for people. Each table is keyed by the spec's own
 * type, so a value added to the spec fails the console's type check until it has a label; a value
 * the API announces may grow (transaction kinds) falls back to its name in plain case.
 */
import type { components } from 'payroll-fee-service';

type Schemas = components['schemas'];

const PAYROLL_STATUS: Record<Schemas['PayrollRequestStatus'], string> = {
  AWAITING_APPROVAL: 'Awaiting approval',
  PENDING: 'Waiting for a quote',
  QUOTE_PROVIDED: 'Quote to accept',
  QUOTE_ACCEPTED: 'Quote accepted',
  EXECUTING: 'Converting',
  PAYOUT_INITIATED: 'Paying out',
  COMPLETED: 'Completed',
  PARTIALLY_COMPLETED: 'Partly paid',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

/** Every status of a payroll request, in the order of its life (the table above lists each once, and tsc checks that it lists them all). */
export const PAYROLL_STATUSES = Object.keys(PAYROLL_STATUS) as Schemas['PayrollRequestStatus'][];

const TRANSFER_TYPE: Record<Schemas['TransferType'], string> = {
  PROCESSOR_INTERNAL_DEBIT: 'Debit of your account',
  PROCESSOR_TO_BANK: 'Move to the payroll bank',
  BANK_TO_BENEFICIARY: 'Payout',
};

const TRANSFER_STATUS: Record<Schemas['TransferStatus'], string> = {
  PENDING: 'Not sent yet',
  INITIATED: 'Sent',
  PROCESSING: 'Processing',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  RETURNED: 'Returned by the bank',
};

const EXCEPTION_KIND: Record<Schemas['BankExceptionKind'], string> = {
  UNKNOWN_REFERENCE: 'Unknown reference',
  AMOUNT_MISMATCH: 'Amount mismatch',
  DUPLICATE_BOOKING: 'Duplicate booking',
  UNEXPECTED_CREDIT: 'Unexpected credit',
  MISSING_BOOKING: 'Missing booking',
  BOOKED_AFTER_FAILURE: 'Booked after failure',
  AMOUNT_PRECISION: 'Finer than the currency',
  BALANCE_DRIFT: 'Balance drift',
};

const EXCEPTION_STATUS: Record<Schemas['BankExceptionStatus'], string> = { OPEN: 'Open', RESOLVED: 'Resolved' };

const STATEMENT_STATUS: Record<Schemas['BankStatement']['status'], string> = { RECONCILED: 'Reconciled', EXCEPTIONS: 'Has exceptions' };

const TRANSACTION_KIND: Record<Schemas['AccountTransactionKind'], string> = {
  OPENING_BALANCE: 'Opening balance',
  FUNDING: 'Funding',
  PAYROLL_DEBIT: 'Payroll debit',
  PAYROLL_ADJUSTMENT: 'Quote adjustment',
  PAYROLL_REFUND: 'Payroll refund',
  PAYROLL_PAYOUT_RETURNED: 'Payout returned',
  PAYOUT_DEBIT: 'Payout debit',
  PAYOUT_REFUND: 'Payout refund',
};

const RATE_SOURCE: Record<Schemas['RateSource'], string> = {
  WORLD: 'Reference data',
  MANUAL: 'Set by an admin',
  ECB: 'European Central Bank',
  FEED: 'Rate feed',
  PEG: 'Peg',
  SAME_CURRENCY: 'Same currency',
};

const AMOUNT_CURRENCY_TYPE: Record<Schemas['AmountCurrencyType'], string> = { SOURCE: 'Source currency', PAYROLL: 'Payroll currency' };

const CREDIT_DEBIT: Record<Schemas['BankException']['creditDebit'] & string, string> = { CRDT: 'Credit', DBIT: 'Debit' };

/** `SOME_NEW_KIND` → `Some new kind`: what a value the console does not know yet reads as. */
function plain(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const lookup =
  <K extends string>(table: Record<K, string>) =>
  (value: K): string =>
    table[value] ?? plain(value);

export const payrollStatusLabel = lookup(PAYROLL_STATUS);
export const transferTypeLabel = lookup(TRANSFER_TYPE);
export const transferStatusLabel = lookup(TRANSFER_STATUS);
export const exceptionKindLabel = lookup(EXCEPTION_KIND);
export const exceptionStatusLabel = lookup(EXCEPTION_STATUS);
export const statementStatusLabel = lookup(STATEMENT_STATUS);
export const transactionKindLabel = lookup(TRANSACTION_KIND);
export const rateSourceLabel = lookup(RATE_SOURCE);
export const amountCurrencyTypeLabel = lookup(AMOUNT_CURRENCY_TYPE);
export const creditDebitLabel = lookup(CREDIT_DEBIT);
