import { DomainError } from '../../domain/errors.js';
import {
  type PayrollTemplateRecord,
  advanceTemplateRun,
  dueTemplateIds,
  getPayrollTemplate,
  insertTemplateRun,
  setNextRunProblem,
} from '../../store/payroll/payrollTemplates.js';
import { findPrincipal } from '../access/principal.js';
import type { UseCaseDeps } from '../deps.js';
import { estimatePayrollFee } from '../fees/estimatePayrollFee.js';
import { RunAlreadyDrafted, createPayrollRequest } from './createPayrollRequest.js';
import { nextRunOf } from './payrollTemplates.js';

/** Templates looked at per pass; the rest wait for the next pass. */
const PER_PASS = 20;

/**
 * The monthly run prepared ahead: each template whose next draft is due gets its request, with
 * the pay date of the run, estimated afresh and created in AWAITING_APPROVAL by the template's
 * author, so that another approver must approve it before anything is debited or paid. The run is
 * recorded with the request in one transaction (a pay date is drafted once, whatever the number of
 * workers), and the template moves on to its next pay date. A refused draft (a beneficiary gone, a
 * rate missing) keeps its reason on the template and is tried again on the next pass until its
 * approve-by has passed; then the run is given up for the next month's. Returns the drafts made.
 */
export async function draftDueTemplateRuns(deps: UseCaseDeps): Promise<number> {
  let drafted = 0;
  for (const templateId of await dueTemplateIds(deps.db, deps.clock(), PER_PASS)) {
    const template = await getPayrollTemplate(deps.db, templateId);
    if (!template || template.nextRun.draftAt > deps.clock()) continue;
    if (await draftRun(deps, template)) drafted += 1;
  }
  return drafted;
}

async function draftRun(deps: UseCaseDeps, template: PayrollTemplateRecord): Promise<boolean> {
  const run = template.nextRun;
  const author = await findPrincipal(deps, template.createdByUserId);
  try {
    if (!author || author.customerId !== template.customerId) throw new DomainError('FORBIDDEN', "The template's author is no longer a user of the customer");
    const accounts = { sourceAccountCurrencyId: template.sourceAccountCurrencyId, payrollAccountCurrencyId: template.payrollAccountCurrencyId };
    const estimate = await estimatePayrollFee(deps, author, {
      ...accounts,
      payDate: run.payDate,
      amountSplitDetails: template.entries.map(({ beneficiaryId, amount, amountCurrencyType }) => ({ beneficiaryId, amount, amountCurrencyType })),
    });
    const body = { ...accounts, feeHash: estimate.feeHash, payDate: run.payDate, amountSplitDetails: template.entries };
    await createPayrollRequest(deps, author, body as Parameters<typeof createPayrollRequest>[2], {
      claim: async (tx, requestId) => {
        if (!(await insertTemplateRun(tx, template.id, run, requestId, deps.clock()))) return false;
        const next = await nextRunOf(tx, deps, template.payrollCurrencyCode, template.payDateRule, template.draftLeadDays, run.payDate);
        return advanceTemplateRun(tx, template.id, run.payDate, next, deps.clock());
      },
    });
    return true;
  } catch (error) {
    if (error instanceof RunAlreadyDrafted) return false;
    if (!(error instanceof DomainError)) throw error;
    await giveUpOrRetry(deps, template, error.message);
    return false;
  }
}

/** A refused run waits for the next pass while its approve-by is ahead; past it, the template moves to its next pay date. */
async function giveUpOrRetry(deps: UseCaseDeps, template: PayrollTemplateRecord, problem: string): Promise<void> {
  const run = template.nextRun;
  if (deps.clock() < run.approveBy) {
    await setNextRunProblem(deps.db, template.id, run.payDate, problem);
    return;
  }
  await deps.db.transaction(async (tx) => {
    const next = await nextRunOf(tx, deps, template.payrollCurrencyCode, template.payDateRule, template.draftLeadDays, run.payDate);
    await advanceTemplateRun(tx, template.id, run.payDate, next, deps.clock());
  });
}
