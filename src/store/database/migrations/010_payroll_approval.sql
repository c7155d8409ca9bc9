-- Four-eyes approval of payroll requests. A customer may require that another of its
-- users, holding the `approver` permission, approves each payroll request before its funds are
-- debited; until then the request waits in AWAITING_APPROVAL.
ALTER TABLE customers ADD COLUMN requires_payroll_approval boolean NOT NULL DEFAULT false;

-- A user's permissions within its customer; 'approver' is the only one so far.
ALTER TABLE users ADD COLUMN permissions text[] NOT NULL DEFAULT '{}';
ALTER TABLE users ADD CONSTRAINT users_permissions_known CHECK (permissions <@ ARRAY['approver']::text[]);

-- Who created the request (null for requests created before this migration or loaded from a world
-- file), whether it needed an approval, and the approval or rejection.
ALTER TABLE payroll_requests ADD COLUMN created_by_user_id uuid REFERENCES users(id);
ALTER TABLE payroll_requests ADD COLUMN approval_required boolean NOT NULL DEFAULT false;
ALTER TABLE payroll_requests ADD COLUMN approved_by_user_id uuid REFERENCES users(id);
ALTER TABLE payroll_requests ADD COLUMN approved_at timestamptz;
ALTER TABLE payroll_requests ADD COLUMN rejected_by_user_id uuid REFERENCES users(id);
ALTER TABLE payroll_requests ADD COLUMN rejected_at timestamptz;
ALTER TABLE payroll_requests ADD COLUMN rejection_reason text;
ALTER TABLE payroll_requests ADD CONSTRAINT payroll_requests_approval_consistent CHECK (
  (approval_required OR (approved_by_user_id IS NULL AND rejected_by_user_id IS NULL))
  AND (approved_by_user_id IS NULL OR rejected_by_user_id IS NULL)
  AND (approved_by_user_id IS NULL OR approved_by_user_id <> created_by_user_id)
);

-- The users a request's approvers are listed from: a customer's users.
CREATE INDEX users_customer ON users (customer_id) WHERE customer_id IS NOT NULL;
