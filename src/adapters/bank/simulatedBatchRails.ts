import { calendarRulesFor } from '../../domain/calendar/calendarRules.js';
import { instantIn } from '../../domain/calendar/timeZones.js';
import type { PayoutBatch } from '../../domain/payouts/payoutBatch.js';
import type { BatchItemStatus, BatchRails } from './batchRails.js';
import { type SimulatedBooks, simulatedFailure, simulatedExternalId } from '../processor/rails.js';

/**
 * The simulated partner bank taking a payroll's payouts as one batch. Its rules are the single
 * rail's (src/adapters/processor/rails.ts): a payout to a beneficiary whose reference starts with FAIL
 * bounces ('Beneficiary account closed'); every item settles `settlementMs` after submission, and
 * not before the day the batch asks the bank to pay (its requested execution date, which begins at
 * the bank's midnight). A batch is recorded once by its id; a repeated submission returns the first one's ids.
 */
export class SimulatedBatchRails implements BatchRails {
  constructor(
    private readonly books: SimulatedBooks,
    private readonly settlementMs: number,
    private readonly clock: () => Date,
  ) {}

  async submitBatch(batch: PayoutBatch): Promise<{ externalBatchId: string; externalIds: ReadonlyMap<string, string> }> {
    const now = this.clock();
    const externalBatchId = `SIM-BAT-${batch.batchId.slice(0, 8)}-${batch.batchId.slice(-12)}`;
    const items = batch.items.map((item) => {
      const instruction = {
        transferId: item.transferId,
        kind: 'BANK_TO_BENEFICIARY' as const,
        amount: item.amount,
        currencyCode: batch.currencyCode,
        accountProvider: batch.debtor.accountProvider,
        beneficiaryReference: item.beneficiaryReference,
      };
      return { transferId: item.transferId, externalId: simulatedExternalId(instruction), amount: item.amount, failureReason: simulatedFailure(instruction) };
    });
    const booked = await this.books.recordBatch({
      batchId: batch.batchId,
      externalBatchId,
      currencyCode: batch.currencyCode,
      submittedAt: now,
      settlesAt: settlesAt(now, this.settlementMs, batch),
      items,
    });
    return { externalBatchId, externalIds: new Map(booked.map((row) => [row.transferId, row.externalId])) };
  }

  async batchStatus(batchId: string): Promise<BatchItemStatus[]> {
    const settled = await this.books.settledBatchItems(batchId, this.clock());
    return settled.map((row) => ({
      transferId: row.transferId,
      status: row.outcome === 'COMPLETED' ? { state: 'COMPLETED' } : { state: 'FAILED', reason: row.failureReason ?? 'Failed' },
    }));
  }
}

/** A bank pays on the requested day, never before: the later of the settlement delay and that day's start on the bank's clock. */
function settlesAt(now: Date, settlementMs: number, batch: PayoutBatch): Date {
  const dayStarts = instantIn(batch.requestedExecutionDate, 0, calendarRulesFor(batch.currencyCode).timeZone);
  return new Date(Math.max(now.getTime() + settlementMs, dayStarts.getTime()));
}
