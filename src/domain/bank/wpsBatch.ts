import type { PayoutBatch } from '../payouts/payoutBatch.js';
import { type SalaryInformationFile, SifError, type SifProfile, buildSalaryInformationFile, salaryAmount } from './wpsSalaryFile.js';

/**
 * The Salary Information File of a payout batch, or null when the batch is not a WPS employer's
 * AED payroll. The SIF and the pain.001 describe the same payments: one EDR per payout, in the
 * file's order, each salary (fixed + variable) exactly the payout's amount, so that the SCR's total
 * is the pain.001's control sum. A batch that breaks this is refused (SifError), never sent with a
 * salary file that disagrees with it.
 */
export function salaryFileOfBatch(batch: PayoutBatch, profile: SifProfile, createdAt: Date): SalaryInformationFile | null {
  const employer = batch.wpsEmployer;
  if (!employer) return null;
  const salaries = batch.items.map((item) => {
    if (!item.wps) throw new SifError(`The payout ${item.transferId} has no WPS salary details`);
    if (!salaryAmount(item.wps).equals(item.amount))
      throw new SifError(`The payout ${item.transferId} pays ${item.amount}; its WPS salary is ${salaryAmount(item.wps).toFixed(2)}`);
    return { ...item.wps, transferId: item.transferId, iban: item.creditor.iban, accountNumber: item.creditor.accountNumber };
  });
  return buildSalaryInformationFile(employer, salaries, profile, createdAt);
}
