-- A booking written finer than its currency's minor units is an exception of its own, kept as the
-- bank wrote it (never rounded).
ALTER TABLE bank_exceptions DROP CONSTRAINT bank_exceptions_kind_check;
ALTER TABLE bank_exceptions ADD CONSTRAINT bank_exceptions_kind_check
  CHECK (kind IN ('UNKNOWN_REFERENCE', 'AMOUNT_MISMATCH', 'DUPLICATE_BOOKING', 'UNEXPECTED_CREDIT', 'MISSING_BOOKING', 'BALANCE_DRIFT', 'BOOKED_AFTER_FAILURE', 'AMOUNT_PRECISION'));
