import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { BankCalendar } from '../../domain/calendar/bankCalendar.js';
import { type PayDateRule, type TemplateRun, nextTemplateRun } from '../../domain/calendar/payDateRule.js';
import { DomainError, notFound, validationError } from '../../domain/errors.js';
import { calendarRulesOf } from '../../store/calendar/bankCalendars.js';
import type { Queryable } from '../../store/database/db.js';
import {
  type PayrollTemplateRecord,
  type TemplateEntry,
  countPayrollTemplates,
  getPayrollTemplate,
  insertPayrollTemplate,
  listPayrollTemplates as listTemplates,
  lockPayrollTemplate,
  updatePayrollTemplate as updateTemplate,
} from '../../store/payroll/payrollTemplates.js';
import { type Principal, requireCustomer } from '../access/principal.js';
import { type CreatedPosition, createdPosition, cursorCodec, ownListCursor } from '../answers/cursor.js';
import { requireActiveBeneficiaries } from '../beneficiaries/beneficiaries.js';
import type { UseCaseDeps } from '../deps.js';
import { estimateReference } from '../fees/estimateReference.js';
import { toPayrollTemplate } from '../views/payrollTemplate.js';

type Schemas = components['schemas'];
type PayrollTemplate = Schemas['PayrollTemplate'];

/** Templates a customer may keep: a handful of payrolls a month, with room to spare. */
const MAX_TEMPLATES = 100;
const DEFAULT_DRAFT_LEAD_DAYS = 2;
const templateCursor = cursorCodec<CreatedPosition>(ownListCursor('listPayrollTemplates', createdPosition));

/**
 * A template for the monthly run: the accounts and beneficiaries checked as an estimate would,
 * the rule's next possible pay date computed on the payroll currency's partner bank calendar.
 */
export async function createPayrollTemplate(deps: UseCaseDeps, caller: Principal, body: Schemas['CreatePayrollTemplateRequest']): Promise<PayrollTemplate> {
  const customerId = requireCustomer(caller);
  const rule = checkedRule(body.payDateRule);
  const entries = checkedEntries(body.amountSplitDetails);
  const reference = await estimateReference(deps, customerId, body);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    if ((await countPayrollTemplates(tx, customerId)) >= MAX_TEMPLATES) {
      throw validationError(`A customer keeps at most ${MAX_TEMPLATES} payroll templates`);
    }
    await requireActiveBeneficiaries(
      tx,
      customerId,
      entries.map((entry) => entry.beneficiaryId),
    );
    const draftLeadDays = body.draftLeadDays ?? DEFAULT_DRAFT_LEAD_DAYS;
    const id = randomUUID();
    await insertPayrollTemplate(tx, {
      id,
      customerId,
      createdByUserId: caller.userId,
      name: body.name,
      sourceAccountCurrencyId: reference.source.id,
      payrollAccountCurrencyId: reference.payroll.id,
      payrollCurrencyCode: reference.payroll.currencyCode,
      entries,
      payDateRule: rule,
      draftLeadDays,
      nextRun: await nextRunOf(tx, deps, reference.payroll.currencyCode, rule, draftLeadDays),
      at: now,
    });
    return answer(tx, id);
  });
}

/** A page of the customer's templates with their next runs, newest first: the calendar of upcoming runs. */
export async function listPayrollTemplates(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string } = {},
): Promise<Schemas['PayrollTemplateListResponse']['data']> {
  const customerId = requireCustomer(caller);
  const limit = query.limit ?? MAX_TEMPLATES;
  const after = query.cursor ? templateCursor.decode(query.cursor, undefined) : null;
  const rows = await listTemplates(deps.db, customerId, { after, limit: limit + 1 });
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items: rows.slice(0, limit).map(toPayrollTemplate), nextCursor: last ? templateCursor.encode(last, undefined) : null };
}

/** Changes what the body names; the next run is computed again, never a pay date already drafted. */
export async function updatePayrollTemplate(
  deps: UseCaseDeps,
  caller: Principal,
  templateId: string,
  body: Schemas['UpdatePayrollTemplateRequest'],
): Promise<PayrollTemplate> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const template = await lockPayrollTemplate(tx, customerId, templateId);
    if (!template) throw notFound(`Payroll template ${templateId} not found`);
    const entries = body.amountSplitDetails ? checkedEntries(body.amountSplitDetails) : template.entries;
    if (body.amountSplitDetails) {
      await requireActiveBeneficiaries(
        tx,
        customerId,
        entries.map((entry) => entry.beneficiaryId),
      );
    }
    const rule = body.payDateRule ? checkedRule(body.payDateRule) : template.payDateRule;
    const draftLeadDays = body.draftLeadDays ?? template.draftLeadDays;
    const nextRun = await nextRunOf(tx, deps, template.payrollCurrencyCode, rule, draftLeadDays, template.lastRun?.payDate);
    await updateTemplate(tx, { id: template.id, name: body.name ?? template.name, entries, payDateRule: rule, draftLeadDays, nextRun }, now);
    return answer(tx, template.id);
  });
}

/** The rule's next possible run after `after` (the last pay date drafted), on the currency's bank calendar. */
export async function nextRunOf(
  q: Queryable,
  deps: Pick<UseCaseDeps, 'clock' | 'config'>,
  payrollCurrency: string,
  rule: PayDateRule,
  draftLeadDays: number,
  after?: string,
): Promise<TemplateRun> {
  const calendar = new BankCalendar(await calendarRulesOf(q, payrollCurrency));
  return nextTemplateRun(calendar, rule, deps.clock(), deps.config.payCalendar.leads, draftLeadDays, after);
}

function checkedRule(rule: Schemas['PayDateRule']): PayDateRule {
  if (rule.kind === 'DAY_OF_MONTH') {
    if (rule.dayOfMonth === undefined) throw validationError('payDateRule.dayOfMonth is required with DAY_OF_MONTH', { field: '/payDateRule/dayOfMonth' });
    return { kind: 'DAY_OF_MONTH', dayOfMonth: rule.dayOfMonth };
  }
  if (rule.dayOfMonth !== undefined)
    throw validationError('payDateRule.dayOfMonth is not allowed with LAST_BUSINESS_DAY', { field: '/payDateRule/dayOfMonth' });
  return { kind: 'LAST_BUSINESS_DAY' };
}

/** Each beneficiary once, ids as the store keeps them (lower case). */
function checkedEntries(entries: Schemas['CreateAmountSplitEntry'][]): TemplateEntry[] {
  const seen = new Set<string>();
  return entries.map((entry, entryIndex) => {
    const beneficiaryId = entry.beneficiaryId.toLowerCase();
    if (seen.has(beneficiaryId)) {
      throw new DomainError('VALIDATION_ERROR', `Beneficiary ${beneficiaryId} occurs twice`, {
        field: `/amountSplitDetails/${entryIndex}/beneficiaryId`,
        entryIndex,
      });
    }
    seen.add(beneficiaryId);
    return { ...entry, beneficiaryId };
  });
}

async function answer(q: Queryable, templateId: string): Promise<PayrollTemplate> {
  const template: PayrollTemplateRecord | null = await getPayrollTemplate(q, templateId);
  return toPayrollTemplate(template!);
}
