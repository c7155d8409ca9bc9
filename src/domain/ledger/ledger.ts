import type { Decimal } from 'decimal.js';
import { DomainError } from '../errors.js';
import { formatAmount } from '../money/money.js';

/** An account currency's available balance, as the ledger locked it for a debit. */
export interface FundedAccount {
  available: Decimal;
  currencyCode: string;
  decimals: number;
}

/**
 * A debit never takes `available` below zero. The 400 names both figures in the account's
 * currency, each with at least its minor units.
 */
export function assertFundsCover(account: FundedAccount, amount: Decimal): void {
  if (!account.available.lessThan(amount)) return;
  const shown = (value: Decimal) => `${formatAmount(value, account.decimals)} ${account.currencyCode}`;
  throw new DomainError('INSUFFICIENT_FUNDS', `Available balance ${shown(account.available)} is less than the total amount ${shown(amount)}`);
}
