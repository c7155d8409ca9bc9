import type { PayDateRule, TemplateRun } from '../../domain/calendar/payDateRule.js';
import type { Queryable } from '../database/db.js';

/** One entry of a template, as a payroll request's. */
export interface TemplateEntry {
  beneficiaryId: string;
  amount: string;
  amountCurrencyType?: 'SOURCE' | 'PAYROLL';
  purposeCode: string;
}

export interface PayrollTemplateRecord {
  id: string;
  customerId: string;
  createdByUserId: string;
  name: string;
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  payrollCurrencyCode: string;
  entries: TemplateEntry[];
  payDateRule: PayDateRule;
  draftLeadDays: number;
  nextRun: TemplateRun;
  lastRun: (TemplateRun & { payrollRequestId: string }) | null;
  /** Why the next run's draft could not be created on its last try. */
  nextRunProblem: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  customerId: string;
  createdByUserId: string;
  name: string;
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  payrollCurrencyCode: string;
  entries: TemplateEntry[];
  ruleKind: PayDateRule['kind'];
  dayOfMonth: number | null;
  draftLeadDays: number;
  nextPayDate: string;
  nextDraftAt: Date;
  nextApproveBy: Date;
  nextRunProblem: string | null;
  lastRun: { payDate: string; payrollRequestId: string; draftAt: string; approveBy: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

const SELECT = `
  SELECT t.id, t.customer_id AS "customerId", t.created_by_user_id AS "createdByUserId", t.name,
         t.source_account_currency_id AS "sourceAccountCurrencyId", t.payroll_account_currency_id AS "payrollAccountCurrencyId",
         t.payroll_currency_code AS "payrollCurrencyCode", t.entries, t.rule_kind AS "ruleKind", t.day_of_month AS "dayOfMonth",
         t.draft_lead_days AS "draftLeadDays", to_char(t.next_pay_date, 'YYYY-MM-DD') AS "nextPayDate",
         t.next_draft_at AS "nextDraftAt", t.next_approve_by AS "nextApproveBy", t.next_run_problem AS "nextRunProblem",
         (SELECT json_build_object('payDate', to_char(r.pay_date, 'YYYY-MM-DD'), 'payrollRequestId', r.payroll_request_id,
                                   'draftAt', r.draft_at, 'approveBy', r.approve_by)
            FROM payroll_template_runs r WHERE r.template_id = t.id ORDER BY r.pay_date DESC LIMIT 1) AS "lastRun",
         t.created_at AS "createdAt", t.updated_at AS "updatedAt"
    FROM payroll_templates t`;

function toRecord(row: Row): PayrollTemplateRecord {
  const { ruleKind, dayOfMonth, nextPayDate, nextDraftAt, nextApproveBy, lastRun, ...rest } = row;
  return {
    ...rest,
    payDateRule: ruleKind === 'DAY_OF_MONTH' ? { kind: ruleKind, dayOfMonth: dayOfMonth! } : { kind: ruleKind },
    nextRun: { payDate: nextPayDate, draftAt: nextDraftAt, approveBy: nextApproveBy },
    lastRun: lastRun && { ...lastRun, draftAt: new Date(lastRun.draftAt), approveBy: new Date(lastRun.approveBy) },
  };
}

/** A template as it is first written: its record without what later runs and changes set. */
export type NewPayrollTemplate = Omit<PayrollTemplateRecord, 'lastRun' | 'nextRunProblem' | 'createdAt' | 'updatedAt'> & { at: Date };

export async function insertPayrollTemplate(tx: Queryable, t: NewPayrollTemplate): Promise<void> {
  await tx.query(
    `INSERT INTO payroll_templates (id, customer_id, created_by_user_id, name, source_account_currency_id, payroll_account_currency_id,
                                    payroll_currency_code, entries, rule_kind, day_of_month, draft_lead_days,
                                    next_pay_date, next_draft_at, next_approve_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $15)`,
    [
      t.id,
      t.customerId,
      t.createdByUserId,
      t.name,
      t.sourceAccountCurrencyId,
      t.payrollAccountCurrencyId,
      t.payrollCurrencyCode,
      JSON.stringify(t.entries),
      t.payDateRule.kind,
      t.payDateRule.kind === 'DAY_OF_MONTH' ? t.payDateRule.dayOfMonth : null,
      t.draftLeadDays,
      t.nextRun.payDate,
      t.nextRun.draftAt,
      t.nextRun.approveBy,
      t.at,
    ],
  );
}

export async function countPayrollTemplates(q: Queryable, customerId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM payroll_templates WHERE customer_id = $1', [customerId]);
  return row!.n;
}

/** One page of a customer's templates, newest first, after `page.after` (the last row of the previous page). */
export async function listPayrollTemplates(
  q: Queryable,
  customerId: string,
  page: { after: { createdAt: Date; id: string } | null; limit: number },
): Promise<PayrollTemplateRecord[]> {
  const rows = await q.query<Row>(
    `${SELECT} WHERE t.customer_id = $1 AND ($2::timestamptz IS NULL OR (t.created_at, t.id) < ($2, $3::uuid))
      ORDER BY t.created_at DESC, t.id DESC LIMIT $4`,
    [customerId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
  );
  return rows.map(toRecord);
}

/** The customer's template, locked for a change; null when it is not theirs or does not exist. */
export async function lockPayrollTemplate(tx: Queryable, customerId: string, templateId: string): Promise<PayrollTemplateRecord | null> {
  const [row] = await tx.query<Row>(`${SELECT} WHERE t.id = $1 AND t.customer_id = $2 FOR UPDATE OF t`, [templateId, customerId]);
  return row ? toRecord(row) : null;
}

export async function getPayrollTemplate(q: Queryable, templateId: string): Promise<PayrollTemplateRecord | null> {
  const [row] = await q.query<Row>(`${SELECT} WHERE t.id = $1`, [templateId]);
  return row ? toRecord(row) : null;
}

export async function updatePayrollTemplate(
  tx: Queryable,
  t: Pick<PayrollTemplateRecord, 'id' | 'name' | 'entries' | 'payDateRule' | 'draftLeadDays' | 'nextRun'>,
  at: Date,
): Promise<void> {
  await tx.query(
    `UPDATE payroll_templates SET name = $2, entries = $3::jsonb, rule_kind = $4, day_of_month = $5, draft_lead_days = $6,
            next_pay_date = $7, next_draft_at = $8, next_approve_by = $9, next_run_problem = NULL, updated_at = $10
      WHERE id = $1`,
    [
      t.id,
      t.name,
      JSON.stringify(t.entries),
      t.payDateRule.kind,
      t.payDateRule.kind === 'DAY_OF_MONTH' ? t.payDateRule.dayOfMonth : null,
      t.draftLeadDays,
      t.nextRun.payDate,
      t.nextRun.draftAt,
      t.nextRun.approveBy,
      at,
    ],
  );
}

/** Templates whose next draft is due at `now`, the earliest first. */
export async function dueTemplateIds(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await q.query<{ id: string }>('SELECT id FROM payroll_templates WHERE next_draft_at <= $1 ORDER BY next_draft_at, id LIMIT $2', [now, limit]);
  return rows.map((row) => row.id);
}

/** Moves a template's next run on, only if it is still `from` (another worker's pass has not already). */
export async function advanceTemplateRun(tx: Queryable, templateId: string, from: string, next: TemplateRun, at: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE payroll_templates SET next_pay_date = $3, next_draft_at = $4, next_approve_by = $5, next_run_problem = NULL, updated_at = $6
      WHERE id = $1 AND next_pay_date = $2 RETURNING 1`,
    [templateId, from, next.payDate, next.draftAt, next.approveBy, at],
  );
  return rows.length > 0;
}

/** Records a pay date's draft, once: false when this pay date already has one. */
export async function insertTemplateRun(tx: Queryable, templateId: string, run: TemplateRun, payrollRequestId: string, at: Date): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO payroll_template_runs (template_id, pay_date, payroll_request_id, draft_at, approve_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1`,
    [templateId, run.payDate, payrollRequestId, run.draftAt, run.approveBy, at],
  );
  return rows.length > 0;
}

/** Keeps why the next run's draft could not be created, for the customer to see and fix. */
export async function setNextRunProblem(q: Queryable, templateId: string, payDate: string, problem: string): Promise<void> {
  await q.query('UPDATE payroll_templates SET next_run_problem = $3 WHERE id = $1 AND next_pay_date = $2', [templateId, payDate, problem]);
}
