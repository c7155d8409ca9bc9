import type { PayoutBatch, PayoutBatchItem } from '../../../src/domain/payouts/payoutBatch.js';

/** A payout of the batch below; `overrides` changes what a test is about. */
export function payoutItem(n: number, overrides: Partial<PayoutBatchItem> = {}): PayoutBatchItem {
  return {
    transferId: `7b1e0009-0000-4000-8000-${String(n).padStart(12, '0')}`,
    amount: `${1000 + n}.25`,
    creditor: { name: `Employee ${n}`, iban: 'AE070331234567890123456', accountNumber: null, bankName: 'Emirates NBD', bic: 'EBILAEAD' },
    purposeCode: 'FCISS',
    beneficiaryReference: `EMP-${n}`,
    ...overrides,
  };
}

/** A payroll request's batch from the demo world's partner-bank account. */
export function payoutBatch(items: PayoutBatchItem[], overrides: Partial<PayoutBatch> = {}): PayoutBatch {
  return {
    batchId: '7b1e0010-0000-4000-8000-000000000001',
    payrollRequestId: '7b1e0011-0000-4000-8000-000000000001',
    currencyCode: 'AED',
    debtor: {
      accountCurrencyId: '7b1e0005-0000-4000-8000-000000000007',
      accountProvider: 'PAYROLL_PARTNER_BANK',
      name: 'Payroll Partner Bank payroll account',
      iban: 'AE420260001015333439101',
      bic: 'EBILAEAD',
    },
    requestedExecutionDate: '2026-11-26',
    items,
    ...overrides,
  };
}
