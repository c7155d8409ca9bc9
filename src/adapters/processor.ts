import type { Decimal } from 'decimal.js';
import { ZERO, Money } from '../domain/money.js';
import { scheduleFee } from '../domain/payrollFees.js';
import type { Queryable } from '../store/db.js';

export interface DebitFeeQuery {
  accountProvider: string;
  currencyCode: string;
  amount: Decimal;
}

/** The payment processor that debits source accounts. */
export interface PaymentProcessor {
  /** The processor's debit-fee estimate, unrounded, in the source currency. */
  estimateDebitFee(tx: Queryable, query: DebitFeeQuery): Promise<Decimal>;
}

/**
 * The simulated processor charges from the world's schedule (processor_fee_schedules):
 * clamp(amount × percentBps/10000 + fixed, min, max); no schedule means no fee.
 */
export class SimulatedProcessor implements PaymentProcessor {
  async estimateDebitFee(tx: Queryable, query: DebitFeeQuery): Promise<Decimal> {
    const rows = await tx.query<{ percent_bps: string; fixed: string; min: string; max: string }>(
      `SELECT percent_bps::text, fixed::text, min::text, max::text FROM processor_fee_schedules
       WHERE account_provider = $1 AND currency_code = $2`,
      [query.accountProvider, query.currencyCode],
    );
    const row = rows[0];
    if (!row) return ZERO;
    return scheduleFee(
      { percentBps: new Money(row.percent_bps), fixed: new Money(row.fixed), min: new Money(row.min), max: new Money(row.max) },
      query.amount,
    );
  }
}
