import { SETTINGS } from './settings.js';
import { ConfigError, read } from './values.js';

/** A pay date's lead times in the partner bank's business days, and when its deadlines are announced (src/config/settings/calendar.ts). */
export interface PayCalendarConfig {
  leads: LeadTimes;
  warningHours: number;
}

/** A pay date's lead times in business days, by step (the domain's LeadTimes has this shape). */
export interface LeadTimes {
  approve: number;
  quote: number;
  accept: number;
  fund: number;
  instruct: number;
}

/** The lead times, which must not increase from one step to the next (each step comes after the one before). */
export function payCalendarConfig(env: NodeJS.ProcessEnv): PayCalendarConfig {
  const leads: LeadTimes = {
    approve: read(env, SETTINGS.PAYROLL_APPROVE_LEAD_DAYS),
    quote: read(env, SETTINGS.PAYROLL_QUOTE_LEAD_DAYS),
    accept: read(env, SETTINGS.PAYROLL_ACCEPT_LEAD_DAYS),
    fund: read(env, SETTINGS.PAYROLL_FUND_LEAD_DAYS),
    instruct: read(env, SETTINGS.PAYROLL_INSTRUCT_LEAD_DAYS),
  };
  const steps = [leads.approve, leads.quote, leads.accept, leads.fund, leads.instruct];
  if (steps.some((lead, i) => i > 0 && lead > steps[i - 1]!)) {
    throw new ConfigError('PAYROLL_*_LEAD_DAYS must not increase from APPROVE to QUOTE, ACCEPT, FUND and INSTRUCT: each step comes after the one before');
  }
  return { leads, warningHours: read(env, SETTINGS.PAYROLL_DEADLINE_WARNING_HOURS) };
}
