import type { Decimal } from 'decimal.js';
import { DomainError } from './errors.js';
import { formatAmount } from './money.js';

/**
 * Why a balance moved. Money enters a customer's account only as a refund, enters the partner-bank
 * payroll account only as an FX credit, and leaves through a debit or a paid payout.
 */
export type LedgerReason = 'PAYROLL_DEBIT' | 'PAYROLL_REFUND' | 'FX_CREDIT' | 'PAYOUT' | 'PAYOUT_DEBIT' | 'PAYOUT_REFUND';

export interface FundedAccount {
  available: Decimal;
  currencyCode: string;
  decimals: number;
}

/**
 * A debit never takes `available` below zero. The 422 names both figures in the account's
 * currency, each with at least its minor units.
 */
export function assertFundsCover(account: FundedAccount, amount: Decimal): void {
  if (!account.available.lessThan(amount)) return;
  const shown = (value: Decimal) => `${formatAmount(value, account.decimals)} ${account.currencyCode}`;
  throw new DomainError('INSUFFICIENT_FUNDS', `Available balance ${shown(account.available)} is less than the total amount ${shown(amount)}`);
}
