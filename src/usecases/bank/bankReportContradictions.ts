import { metrics } from '../../observability/telemetry.js';
import { type BankReportContradiction, takeUnnoticedContradictions } from '../../store/bank/bankFiles.js';
import type { UseCaseDeps } from '../deps.js';

const NOTICED_PER_PASS = 100;

/**
 * The bank's reports that contradicted a settled payout since the last pass, each counted once in
 * the metric: the caller (the worker) logs them at warning. The payout keeps its first outcome;
 * which one is true is a question for the bank.
 */
export async function noticeBankReportContradictions(deps: Pick<UseCaseDeps, 'db' | 'clock'>): Promise<BankReportContradiction[]> {
  const noticed = await deps.db.transaction((tx) => takeUnnoticedContradictions(tx, deps.clock(), NOTICED_PER_PASS));
  for (let i = 0; i < noticed.length; i++) metrics.bankReportContradiction();
  return noticed;
}
