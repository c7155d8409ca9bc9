-- A split's link to its payout is read from the payout, which names its split (amount_split_id):
-- the FX record no longer updates every split (a new version of each row and of its JSON) to store
-- the link on it too. Reads join a split to its payout by this index (store/wireFormat.ts); it is
-- unique, as the link was: a split has at most one payout. Splits linked by an earlier release keep
-- their payout_transfer_id, which names the same payout.
CREATE UNIQUE INDEX transfers_payout_of_split ON transfers (amount_split_id) INCLUDE (id) WHERE amount_split_id IS NOT NULL;

-- Nothing sets a split's payout_transfer_id in bulk any more: migration 022's check of every
-- update's new rows (a transition table of each statement that updates splits, the quote's 100,000
-- included) becomes a lookup on the rare update that changes the column.
DROP TRIGGER amount_splits_payout_linked ON amount_splits;
CREATE TRIGGER amount_splits_payout_updated BEFORE UPDATE OF payout_transfer_id ON amount_splits FOR EACH ROW
  WHEN (OLD.payout_transfer_id IS DISTINCT FROM NEW.payout_transfer_id)
  EXECUTE FUNCTION updated_reference_check('payout_transfer_id', 'transfers', 'id', 'uuid');
