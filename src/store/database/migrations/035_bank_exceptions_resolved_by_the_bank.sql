-- A MISSING_BOOKING answered by the bank's own books (a later booking or return of the payout) is
-- resolved by that message, not by an operator: its MsgId and the booking's AcctSvcrRef are kept.
-- And a new kind: the bank booked a payout we had failed and credited back (BOOKED_AFTER_FAILURE).
ALTER TABLE bank_exceptions ADD COLUMN resolved_by_msg_id text REFERENCES bank_books_messages (msg_id);
ALTER TABLE bank_exceptions ADD COLUMN resolved_by_bank_reference text;
ALTER TABLE bank_exceptions DROP CONSTRAINT bank_exceptions_kind_check;
ALTER TABLE bank_exceptions ADD CONSTRAINT bank_exceptions_kind_check
  CHECK (kind IN ('UNKNOWN_REFERENCE', 'AMOUNT_MISMATCH', 'DUPLICATE_BOOKING', 'UNEXPECTED_CREDIT', 'MISSING_BOOKING', 'BALANCE_DRIFT', 'BOOKED_AFTER_FAILURE'));
