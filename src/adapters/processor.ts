import { type FeeSchedule, parseFeeSchedule } from '../domain/payrollFees.js';
import type { Database } from '../store/db.js';
import { findProcessorFeeSchedule } from '../store/referenceData.js';

export interface DebitFeeQuery {
  accountProvider: string;
  currencyCode: string;
}

/** The payment processor that debits source accounts. */
export interface PaymentProcessor {
  /**
   * The schedule the processor charges a debit from this account provider and currency by:
   * clamp(amount × percentBps/10000 + fixed, min, max); null when it charges nothing. The fee
   * itself is domain arithmetic (estimatePayrollFigures), so the estimate stays one pure function.
   */
  debitFeeSchedule(query: DebitFeeQuery): Promise<FeeSchedule | null>;
}

/** The simulated processor charges from the world's schedule (processor_fee_schedules). */
export class SimulatedProcessor implements PaymentProcessor {
  constructor(private readonly db: Database) {}

  async debitFeeSchedule(query: DebitFeeQuery): Promise<FeeSchedule | null> {
    const schedule = await findProcessorFeeSchedule(this.db, query.accountProvider, query.currencyCode);
    return schedule && parseFeeSchedule(schedule);
  }
}
