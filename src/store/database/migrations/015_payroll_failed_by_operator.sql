-- An operator failing an EXECUTING request (failPayrollRequest) returns its funds in one entry of
-- its own kind: the fees given back and what the bank leg held credited to the source account.
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_kind_check;
ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_kind_check CHECK (kind IN (
  'OPENING_BALANCE', 'PAYROLL_CREATED', 'PAYROLL_CANCELLED', 'ACCEPT_TOP_UP', 'ACCEPT_REFUND',
  'PROCESSOR_LEG_COMPLETED', 'PROCESSOR_LEG_FAILED', 'BANK_LEG_COMPLETED', 'BANK_LEG_FAILED',
  'FX_CONVERSION', 'PAYOUT_SENT', 'PAYOUT_FAILED_CREDIT_BACK',
  'SINGLE_PAYOUT_DEBITED', 'SINGLE_PAYOUT_SENT', 'SINGLE_PAYOUT_REFUNDED', 'FUNDING',
  'PAYROLL_FAILED_RETURNED'));
