-- Open payouts written before batches existed (migration 016) are in no batch, and the worker
-- moves payouts a batch at a time: each request's get one batch, once, here (the worker no longer
-- looks for them on every pass). The batches are CREATED, so the worker submits them as any other;
-- the bank is idempotent by the batch's id. now() is this transaction's start: it tells the batches
-- made here from a request's earlier one. On a database with none it reads one partial index.
INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at)
SELECT gen_random_uuid(), t.payroll_request_id, min(t.currency_code), 'CREATED', count(*), now()
  FROM transfers t
 WHERE t.batch_id IS NULL AND t.transfer_type = 'BANK_TO_BENEFICIARY' AND t.status IN ('PENDING', 'INITIATED', 'PROCESSING')
 GROUP BY t.payroll_request_id
ON CONFLICT (payroll_request_id) DO NOTHING;

UPDATE transfers t SET batch_id = b.id FROM payout_batches b
 WHERE b.payroll_request_id = t.payroll_request_id AND b.created_at = now() AND b.status = 'CREATED'
   AND t.batch_id IS NULL AND t.transfer_type = 'BANK_TO_BENEFICIARY' AND t.status IN ('PENDING', 'INITIATED', 'PROCESSING');
