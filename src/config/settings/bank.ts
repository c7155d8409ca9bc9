/** The partner bank (docs/bank-files.md): which rail, its folders, and the bounds on what it sends and when. */
import { DATABASE_SETTINGS } from './database.js';
import { computed, declare, integer, oneOf, read, text } from '../values.js';

const underDataDir = (folder: string) => computed(`\`$DATA_DIR/${folder}\``, (env): string => `${read(env, DATABASE_SETTINGS.DATA_DIR)}/${folder}`);

export const BANK_SETTINGS = declare({
  BANK_RAIL: oneOf(['simulated', 'iso20022'], {
    default: 'simulated',
    doc: 'How payouts reach the partner bank: `simulated` (in the database) or `iso20022` (pain.001 files out, pain.002 reports in; see [bank files](bank-files.md))',
  }),
  // Business days after pain.002 reported a payout paid within which a statement must book it (else MISSING_BOOKING).
  BANK_BOOKING_GRACE_DAYS: integer(0, 30, {
    default: 3,
    doc: "With `BANK_RAIL=iso20022`: business days (of the payout currency's partner bank calendar, in its time zone) after pain.002 reported a payout paid within which a camt.053 statement must book it; later, the next statement raises a `MISSING_BOOKING` exception ([bank files](bank-files.md#exceptions))",
  }),
  BANK_OUTBOX_DIR: text({ default: underDataDir('bank/outbox'), doc: 'With `BANK_RAIL=iso20022`: where payment files are written' }),
  BANK_INBOX_DIR: text({
    default: underDataDir('bank/inbox'),
    doc: "With `BANK_RAIL=iso20022`: where the bank's status reports are read (`processed/` and `rejected/` beneath)",
  }),
  // About five times a 100,000-transaction camt.053, the largest report the bank sends (docs/operations.md gives its size).
  BANK_REPORT_MAX_BYTES: integer(1024, 2 ** 31 - 1, {
    default: 256 * 1024 * 1024,
    note: '256 MiB',
    doc: 'With `BANK_RAIL=iso20022`: the largest inbox file read; a larger one goes to `rejected/` unread. Measured: a 100,000-payout camt.053 statement is 54 MB, a 100,000-transaction pain.002 is 14 MB, so the default is about five times the largest report a 100,000-payout day brings ([bank files](bank-files.md#what-comes-in-status-reports))',
  }),
  // A bank answers a file within minutes (ACCP) and settles it the same business day: half a day
  // without a final word is worth an operator's look, before the customer asks.
  BANK_UNANSWERED_AFTER_SECONDS: integer(60, 30 * 86_400, {
    default: 43_200,
    note: '12 h',
    doc: "With `BANK_RAIL=iso20022`: how long a payment file may wait for the bank's final word on its payouts before it is overdue: `overdue` in `GET /v1/admin/bank/batches`, and the bound `payroll_bank_batch_unanswered_max_age_seconds` the `PayrollBankBatchUnanswered` alert compares with (60 s to 30 days). A bank acknowledges a file within minutes and settles it the same business day ([bank files](bank-files.md#when-the-bank-does-not-answer))",
  }),
  // The Central Bank's layout unless the employer's agent asks for another (docs/wps.md lists where they differ).
  WPS_SIF_PROFILE: oneOf(['UAEWPS', 'UAEWPS_ACCOUNT_NUMBER', 'UAEWPS_SECONDS'], {
    default: 'UAEWPS',
    doc: "With `BANK_RAIL=iso20022`: the layout of the UAE Wage Protection System's salary files written beside a WPS employer's AED payment files: `UAEWPS` (IBAN, 14-digit person id, time `HHMM`), `UAEWPS_ACCOUNT_NUMBER` (the account number instead of the IBAN), `UAEWPS_SECONDS` (time `HHMMSS`) ([WPS](wps.md#profiles))",
  }),
  BANK_REPORT_SETTLE_MS: integer(0, 600_000, {
    default: 2000,
    doc: "With `BANK_RAIL=iso20022`: a new inbox file is read once unmodified this long, or once its size and mtime have not changed since the worker's previous pass; a file still being written waits",
  }),
});
