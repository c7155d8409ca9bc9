import type { components } from '../../../generated/api.js';
import { returnedAmountOf } from '../../domain/payouts/returnedAmount.js';
import type { AmountSplitRow, TransferRow } from '../../store/payroll/payrollItems.js';
import type { FxExchangeRecord, PayrollRequestRecord } from '../../store/payroll/payrollRequests.js';
import { amountSplitText } from './amountSplit.js';
import { toFxExchange } from './fxExchange.js';
import { toPaySchedule } from './paySchedule.js';
import { transferText } from './transfer.js';

type Schemas = components['schemas'];
type PayrollRequest = Schemas['PayrollRequest'];

/** The request without its items: what every answer, page stream and event of it begins with. */
export type PayrollRequestTop = Omit<PayrollRequest, 'amountSplitDetails' | 'transfers'>;

/** What the request's top level is written from: its row, its approvers, its FX record and its splits' returned amounts. */
export interface PayrollRequestFacts {
  request: PayrollRequestRecord;
  approvers: Schemas['UserSummary'][];
  fx: FxExchangeRecord | null;
  returnedAmounts: readonly string[];
}

/** The request's items, a page at a time in their order: the splits, then the transfers. */
export interface PayrollRequestItems {
  splitPages: AsyncIterable<readonly AmountSplitRow[]>;
  transferPages: AsyncIterable<readonly TransferRow[]>;
}

/**
 * The one writer of a PayrollRequest (2.2–2.8): the GET of any size, every operation's answer and
 * the payroll_request.status_changed event. The top level first (returnedAmount, a money rule, then
 * the request's fields), then the items as they are read.
 */
export function toPayrollRequestTop({ request, approvers, fx, returnedAmounts }: PayrollRequestFacts): PayrollRequestTop {
  return {
    returnedAmount: returnedAmountOf(returnedAmounts, request.sourceCurrencyDecimals),
    id: request.id,
    ...accountCurrencies(request),
    totalAmount: request.totalAmount,
    status: request.status,
    estimatedFxRate: request.estimatedFxRate,
    estimatedReceivedAmount: request.estimatedReceivedAmount,
    sourceAmountForExchange: request.sourceAmountForExchange,
    quotedFxRate: request.quoteRate,
    quoteExpiresAt: isoOrNull(request.quoteExpiresAt),
    quotedByUserId: request.quotedByUserId,
    quotedByUser:
      request.quotedByUserId === null
        ? null
        : { id: request.quotedByUserId, firstName: request.quotedByFirstName, lastName: request.quotedByLastName, email: request.quotedByEmail },
    quotedAt: isoOrNull(request.quotedAt),
    quote: quoteOf(request),
    acceptedByCustomerAt: isoOrNull(request.acceptedByCustomerAt),
    cancellationReason: request.cancellationReason,
    failureReason: request.failureReason,
    ...paySchedule(request),
    approval: approvalOf(request, approvers),
    metadata: request.metadata,
    fxExchange: fx && toFxExchange(fx),
    customer: {
      id: request.customerId,
      firstName: request.customerFirstName,
      lastName: request.customerLastName,
      company: { legalName: request.companyLegalName },
    },
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
  };
}

/**
 * The request's JSON text, part after part as its items are read: the top level's fields, then
 * the items' text (payrollItemsText, or the same text kept from an earlier read of the same items).
 * Whatever the request's size the process holds one page; the parts joined are one JSON object.
 */
export async function* payrollRequestText<Part extends string | Buffer>(
  top: PayrollRequestTop,
  items: AsyncIterable<Part> | Iterable<Part>,
): AsyncGenerator<string | Part, void, undefined> {
  yield `${JSON.stringify(top).slice(0, -1)},"amountSplitDetails":[`;
  yield* items;
  yield ']}';
}

/** The request's items as its text carries them: the splits, then the transfers, each list's items a page at a time. */
export async function* payrollItemsText(requestId: string, items: PayrollRequestItems): AsyncGenerator<string, void, undefined> {
  yield* pagesText(items.splitPages, (split) => amountSplitText(split, requestId));
  yield '],"transfers":[';
  yield* pagesText(items.transferPages, transferText);
}

/** A request's event payload above the items an event carries: the top level, and `itemsOmitted` (the spec's PayrollRequestItemsOmitted). */
export function payrollRequestItemsOmitted(top: PayrollRequestTop): Schemas['PayrollRequestItemsOmitted'] {
  return { ...top, itemsOmitted: true };
}

/**
 * Items joined into one part. A page's text in one string is a large object to V8 (allocated
 * outside the young generation, freed only by a full collection, and copied again when it is
 * encoded for the socket); parts of a few dozen items stay small strings that a scavenge frees.
 * The route still sends a page in few writes: the parts come within one tick, while the socket is corked.
 */
const ITEMS_PER_PART = 64;

async function* pagesText<T>(pages: AsyncIterable<readonly T[]>, write: (item: T) => string): AsyncGenerator<string, void, undefined> {
  let separator = '';
  for await (const page of pages) {
    for (let start = 0; start < page.length; start += ITEMS_PER_PART) {
      const end = Math.min(start + ITEMS_PER_PART, page.length);
      const texts: string[] = [];
      for (let i = start; i < end; i++) texts.push(write(page[i]!));
      yield separator + texts.join(',');
      separator = ',';
    }
  }
}

function accountCurrencies(
  request: PayrollRequestRecord,
): Pick<PayrollRequest, 'sourceAccountCurrencyId' | 'sourceAccountCurrency' | 'payrollAccountCurrencyId' | 'payrollAccountCurrency'> {
  return {
    sourceAccountCurrencyId: request.sourceAccountCurrencyId,
    sourceAccountCurrency: {
      id: request.sourceAccountCurrencyId,
      accountId: request.sourceAccountId,
      currency: {
        id: request.sourceCurrencyId,
        currencyCode: request.sourceCurrencyCode,
        currencyName: request.sourceCurrencyName,
        currencySymbol: request.sourceCurrencySymbol,
        decimals: request.sourceCurrencyDecimals,
      },
      balance: request.sourceBalance,
      available: request.sourceAvailable,
      account: { id: request.sourceAccountId, accountProvider: request.sourceAccountProvider, customerId: request.sourceAccountCustomerId },
    },
    payrollAccountCurrencyId: request.payrollAccountCurrencyId,
    payrollAccountCurrency: {
      id: request.payrollAccountCurrencyId,
      currency: { currencyCode: request.payrollCurrencyCode, currencyName: request.payrollCurrencyName, decimals: request.payrollCurrencyDecimals },
      account: { accountProvider: request.payrollAccountProvider },
    },
  };
}

/**
 * The figures at the quote rate, as the quote stored them (each written at its currency's scale);
 * null before the quote. The fee amount is the locked one; the debited amount what creation took.
 */
function quoteOf(request: PayrollRequestRecord): Schemas['PayrollQuoteFigures'] | null {
  const { quoteRate, quoteSourceAmountForExchange, quoteTotalAmount, quoteReceivedAmount, quoteAdjustmentAmount } = request;
  if (quoteRate === null || quoteSourceAmountForExchange === null || quoteTotalAmount === null || quoteReceivedAmount === null) return null;
  if (quoteAdjustmentAmount === null) return null;
  return {
    exchangeRate: quoteRate,
    sourceAmountForExchange: quoteSourceAmountForExchange,
    feeAmount: request.metadata.feeBreakdown.totalFee,
    totalAmount: quoteTotalAmount,
    receivedAmount: quoteReceivedAmount,
    debitedAmount: request.debitedAmount,
    adjustmentAmount: quoteAdjustmentAmount,
  };
}

/** A request with a pay date carries it and its deadlines; one without, neither. */
function paySchedule(request: PayrollRequestRecord): Pick<PayrollRequest, 'payDate' | 'schedule'> {
  if (request.payDate === null) return {};
  const { payDate, payTimeZone, approveBy, quoteBy, acceptBy, fundBy, instructBy } = request;
  return { payDate, schedule: toPaySchedule({ payDate, timeZone: payTimeZone, approveBy, quoteBy, acceptBy, fundBy, instructBy }) };
}

/** Four-eyes approval: who may approve (when required), and who approved or rejected and when. */
function approvalOf(request: PayrollRequestRecord, approvers: Schemas['UserSummary'][]): Schemas['PayrollApproval'] {
  return {
    required: request.approvalRequired,
    approvers,
    createdByUserId: request.approvalRequired ? request.createdByUserId : null,
    approvedByUserId: request.approvedByUserId,
    approvedAt: isoOrNull(request.approvedAt),
    rejectedByUserId: request.rejectedByUserId,
    rejectedAt: isoOrNull(request.rejectedAt),
    rejectionReason: request.rejectionReason,
  };
}

/** A timestamp that may not have happened yet (a quote, an acceptance): null until it has. */
const isoOrNull = (value: Date | null): string | null => (value ? value.toISOString() : null);
