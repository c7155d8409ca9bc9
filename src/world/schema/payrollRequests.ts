/** The `$defs` of the world's optional payroll requests, with their splits, transfers and FX record. */
import type { components } from '../../../generated/api.js';
import { ref, specEnum } from './build.js';

type Schemas = components['schemas'];

const PURPOSE_CODES = specEnum<Schemas['PurposeCode']>()(['SAL', 'FCISS', 'PEN', 'OFS']);
const AMOUNT_CURRENCY_TYPES = specEnum<Schemas['AmountCurrencyType']>()(['SOURCE', 'PAYROLL']);
const TRANSFER_TYPES = specEnum<Schemas['TransferType']>()(['PROCESSOR_INTERNAL_DEBIT', 'PROCESSOR_TO_BANK', 'BANK_TO_BENEFICIARY']);
// A world carries no RETURNED payout: a return comes only from the bank's books (docs/bank-files.md).
const TRANSFER_STATUSES = specEnum<Exclude<Schemas['TransferStatus'], 'RETURNED'>>()(['PENDING', 'INITIATED', 'PROCESSING', 'COMPLETED', 'FAILED']);
const PAYROLL_STATUSES = specEnum<Schemas['PayrollRequestStatus']>()([
  'AWAITING_APPROVAL',
  'PENDING',
  'QUOTE_PROVIDED',
  'QUOTE_ACCEPTED',
  'EXECUTING',
  'PAYOUT_INITIATED',
  'COMPLETED',
  'PARTIALLY_COMPLETED',
  'FAILED',
  'CANCELLED',
]);

const nullableText = { anyOf: [ref('text'), { type: 'null' }] } as const;

export const payrollRequestDefs = {
  feeDetails: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'amount', 'finalInternalFee'],
    properties: { id: ref('uuid'), amount: ref('decimal'), finalInternalFee: ref('decimal') },
  },
  feeBreakdown: {
    type: 'object',
    additionalProperties: false,
    required: [
      'sourceCurrencyAmount',
      'spreadFee',
      'processorFee',
      'bankFee',
      'totalFee',
      'estimatedReceivedAmount',
      'payrollCurrencyCode',
      'feeCurrencyCode',
      'exchangeRate',
      'baseRate',
    ],
    properties: {
      sourceCurrencyAmount: ref('decimal'),
      spreadFee: ref('decimal'),
      processorFee: ref('decimal'),
      bankFee: ref('decimal'),
      totalFee: ref('decimal'),
      estimatedReceivedAmount: ref('decimal'),
      payrollCurrencyCode: ref('currencyCode'),
      feeCurrencyCode: ref('currencyCode'),
      exchangeRate: ref('decimal'),
      baseRate: ref('decimal'),
    },
  },
  amountSplit: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'beneficiaryId', 'sourceCurrencyAmount', 'amount', 'purposeCode'],
    properties: {
      id: ref('uuid'),
      beneficiaryId: ref('uuid'),
      amountCurrencyType: {
        description: "Which figure the customer fixed (default SOURCE): the quote keeps a SOURCE split's source amount and a PAYROLL split's payroll amount.",
        enum: AMOUNT_CURRENCY_TYPES,
      },
      sourceCurrencyAmount: ref('decimal'),
      amount: ref('decimal'),
      purposeCode: { enum: PURPOSE_CODES },
      payoutTransferId: ref('uuid'),
    },
  },
  transfer: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'transferType', 'status', 'amount', 'currencyCode', 'createdAt'],
    properties: {
      id: ref('uuid'),
      transferType: { enum: TRANSFER_TYPES },
      status: { enum: TRANSFER_STATUSES },
      externalId: { type: 'string', minLength: 1, maxLength: 128 },
      amount: ref('decimal'),
      currencyCode: ref('currencyCode'),
      feeDetails: ref('feeDetails'),
      amountSplitId: { description: 'BANK_TO_BENEFICIARY only: the amount split this payout pays.', ...ref('uuid') },
      executedAt: ref('timestamp'),
      completedAt: ref('timestamp'),
      failureReason: ref('text'),
      createdAt: ref('timestamp'),
    },
  },
  fxExchange: {
    type: 'object',
    additionalProperties: false,
    required: [
      'id',
      'fromCurrencyCode',
      'toCurrencyCode',
      'fromAmount',
      'toAmount',
      'exchangeRate',
      'feeDetails',
      'recordedByUserId',
      'recordedAt',
      'createdAt',
    ],
    properties: {
      id: ref('uuid'),
      fromCurrencyCode: ref('currencyCode'),
      toCurrencyCode: ref('currencyCode'),
      fromAmount: ref('decimal'),
      toAmount: ref('decimal'),
      exchangeRate: ref('decimal'),
      feeDetails: ref('feeDetails'),
      recordedByUserId: ref('uuid'),
      recordedAt: ref('timestamp'),
      createdAt: ref('timestamp'),
    },
  },
  payrollRequest: {
    type: 'object',
    additionalProperties: false,
    required: [
      'id',
      'customerId',
      'sourceAccountCurrencyId',
      'payrollAccountCurrencyId',
      'status',
      'totalAmount',
      'estimatedFxRate',
      'estimatedReceivedAmount',
      'sourceAmountForExchange',
      'feeBreakdown',
      'createdAt',
      'updatedAt',
      'amountSplitDetails',
    ],
    properties: {
      id: ref('uuid'),
      customerId: ref('uuid'),
      sourceAccountCurrencyId: ref('uuid'),
      payrollAccountCurrencyId: ref('uuid'),
      status: { enum: PAYROLL_STATUSES },
      totalAmount: ref('decimal'),
      estimatedFxRate: ref('decimal'),
      estimatedReceivedAmount: ref('decimal'),
      sourceAmountForExchange: ref('decimal'),
      quoteRate: ref('decimal'),
      quoteExpiresAt: ref('timestamp'),
      quotedByUserId: ref('uuid'),
      quotedAt: ref('timestamp'),
      acceptedByCustomerAt: ref('timestamp'),
      cancellationReason: nullableText,
      failureReason: nullableText,
      feeBreakdown: ref('feeBreakdown'),
      createdAt: ref('timestamp'),
      updatedAt: ref('timestamp'),
      amountSplitDetails: { type: 'array', minItems: 1, items: ref('amountSplit') },
      transfers: { type: 'array', items: ref('transfer') },
      fxExchange: ref('fxExchange'),
    },
  },
} as const;
