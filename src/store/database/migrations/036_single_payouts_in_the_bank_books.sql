-- A single payout on the bank rail is in the bank's books as a payroll payout is: its booking and
-- its return are kept on it, and a payout the bank returned after paying it becomes RETURNED.
ALTER TABLE payouts ADD COLUMN bank_booking jsonb;
ALTER TABLE payouts ADD COLUMN bank_return jsonb;
ALTER TABLE payouts DROP CONSTRAINT payouts_status_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_status_check CHECK (status IN ('PENDING', 'INITIATED', 'PROCESSING', 'COMPLETED', 'FAILED', 'RETURNED'));
