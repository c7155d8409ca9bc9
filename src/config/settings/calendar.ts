/**
 * A payroll's pay date (docs/payroll-calendar.md): how many of the partner bank's business days
 * before it each step must be done, each by the bank's cut-off that day. Non-increasing in the
 * order of the steps (approve, quote, accept, fund, instruct): the service refuses to start otherwise.
 */
import { declare, integer } from '../values.js';

export const CALENDAR_SETTINGS = declare({
  PAYROLL_APPROVE_LEAD_DAYS: integer(0, 30, {
    default: 3,
    doc: "Business days of the payroll currency's partner bank before a pay date by whose cut-off four-eyes approval is due (approve-by)",
  }),
  PAYROLL_QUOTE_LEAD_DAYS: integer(0, 30, { default: 2, doc: 'Business days before a pay date by whose cut-off the FX desk quotes (quote-by)' }),
  PAYROLL_ACCEPT_LEAD_DAYS: integer(0, 30, { default: 1, doc: 'Business days before a pay date by whose cut-off the customer accepts the quote (accept-by)' }),
  PAYROLL_FUND_LEAD_DAYS: integer(0, 30, {
    default: 1,
    doc: 'Business days before a pay date on which an accepted request is debited and executed, by that day’s cut-off (fund-by; it starts at the bank’s midnight)',
  }),
  PAYROLL_INSTRUCT_LEAD_DAYS: integer(0, 30, {
    default: 1,
    doc: 'Business days before a pay date by whose cut-off the payment file reaches the bank (instruct-by)',
  }),
  PAYROLL_DEADLINE_WARNING_HOURS: integer(1, 240, {
    default: 24,
    doc: 'How long before a deadline of a payroll with a pay date its deadline-approaching webhook event is sent',
  }),
});
