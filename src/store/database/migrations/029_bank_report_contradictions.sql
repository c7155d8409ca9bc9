-- A status report that rejects a payout the bank had already reported settled (RJCT after ACSC):
-- the payout keeps its first outcome, and the contradiction is kept here until the worker has
-- logged and counted it (noticed_at), so that it is never silent.
CREATE TABLE bank_report_contradictions (
  id bigserial PRIMARY KEY,
  end_to_end_id text NOT NULL REFERENCES bank_file_items (end_to_end_id),
  report_msg_id text NOT NULL REFERENCES bank_status_reports (msg_id),
  settled_status text NOT NULL,
  reported_status text NOT NULL,
  reported_reason text,
  recorded_at timestamptz NOT NULL,
  noticed_at timestamptz
);
CREATE INDEX bank_report_contradictions_unnoticed ON bank_report_contradictions (id) WHERE noticed_at IS NULL;
