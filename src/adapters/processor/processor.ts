import { type FeeSchedule, parseFeeSchedule } from '../../domain/fees/payrollFees.js';

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

/** The world's processor fee schedules (the store's processor_fee_schedules, given by the composition root), as text. */
export interface ProcessorSchedules {
  processorFeeSchedule(accountProvider: string, currencyCode: string): Promise<Record<keyof FeeSchedule, string> | null>;
}

/** The simulated processor charges from the world's schedule. */
export class SimulatedProcessor implements PaymentProcessor {
  constructor(private readonly schedules: ProcessorSchedules) {}

  async debitFeeSchedule(query: DebitFeeQuery): Promise<FeeSchedule | null> {
    const schedule = await this.schedules.processorFeeSchedule(query.accountProvider, query.currencyCode);
    return schedule && parseFeeSchedule(schedule);
  }
}
