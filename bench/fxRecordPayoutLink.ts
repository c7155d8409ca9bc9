/**
 * The FX record's payout statement on PostgreSQL, as it is against as it was before migration 032
 * (each split updated to store its payout link, migration 022's per-statement check, no index of
 * payouts by split), in interleaved pairs on one request, each run rolled back and the tables
 * vacuumed; then the reads of the request's splits with the link read from the payout against
 * stored on the split. On a database of its own (it adds a request of `splits` splits to the test
 * world; docs/decisions/0011-payout-link-on-the-payout.md):
 *
 *   npx tsx bench/fxRecordPayoutLink.ts postgres://…/scratch [splits=10000] [pairs=3]
 *
 * WRITES=0 or READS=0 leaves out one half.
 */
import { performance } from 'node:perf_hooks';
import { migrate } from '../src/store/migrate.js';
import { PostgresDatabase } from '../src/store/postgres.js';
import { insertPayoutsOfSplits } from '../src/store/payrollLifecycle.js';
import { findPayrollRequestJson, findPayrollSplitsJson, payrollItemsBytes } from '../src/store/payrollRequestJson.js';
import { payoutInstructionJson } from '../src/store/wireFormat.js';
import { isDatabaseEmpty, loadWorld } from '../src/world/load.js';
import { ids, testWorld } from '../test/fixtures/world.js';

const [url, nArg, pairsArg] = process.argv.slice(2);
const n = Number(nArg ?? 10000);
const pairs = Number(pairsArg ?? 3);
const db = await PostgresDatabase.open(url!, {
  session: {
    connectTimeoutMs: 5000,
    poolWaitMs: 600_000,
    statementTimeoutMs: 600_000,
    lockTimeoutMs: 60_000,
    idleInTransactionTimeoutMs: 600_000,
    keepAliveMs: 10_000,
    workMemMb: 128,
  },
});
await migrate(db);
if (await isDatabaseEmpty(db)) await loadWorld(db, testWorld);
const req = `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
const old = ids.requestACompleted;
if ((await db.query('SELECT 1 FROM payroll_requests WHERE id = $1', [req])).length === 0) {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO payroll_requests SELECT (jsonb_populate_record(NULL::payroll_requests, to_jsonb(r) || jsonb_build_object('id', $2::uuid, 'fee_hash', NULL, 'split_count', $3::int))).* FROM payroll_requests r WHERE id = $1`,
      [old, req, n],
    );
    await tx.query(
      `INSERT INTO amount_splits (id, payroll_request_id, beneficiary_id, beneficiary_snapshot, amount_currency_type, source_currency_amount, amount,
          quoted_source_currency_amount, quoted_amount, purpose_code, created_at, position)
       SELECT gen_random_uuid(), $2, s.beneficiary_id,
              s.beneficiary_snapshot || jsonb_build_object('iban', 'AE070331234567890123456', 'bankName', 'Emirates NBD Bank PJSC', 'nationality', 'AE',
                'reference', 'EMP-' || g, 'note', repeat('x', 520)),
              s.amount_currency_type, s.source_currency_amount, s.amount, s.quoted_source_currency_amount, s.quoted_amount, s.purpose_code, s.created_at, g
         FROM generate_series(0, $3::int - 1) g, (SELECT * FROM amount_splits WHERE payroll_request_id = $1 ORDER BY position LIMIT 1) s`,
      [old, req, n],
    );
    await tx.query(
      `INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at) VALUES (gen_random_uuid(), $1, 'AED', 'CREATED', 0, now())`,
      [req],
    );
  });
}
for (const t of ['amount_splits', 'transfers', 'payroll_requests']) await db.query(`VACUUM ANALYZE ${t}`);
const [size] = await db.query<{ row: number; json: number }>(
  'SELECT avg(pg_column_size(s.*))::int AS row, avg(octet_length(api_json))::int AS json FROM amount_splits s WHERE payroll_request_id = $1',
  [req],
);
const [batch] = await db.query<{ id: string }>('SELECT id FROM payout_batches WHERE payroll_request_id = $1', [req]);
console.log(`n=${n} split row ${size!.row} B, api_json ${size!.json} B`);

// The statement as it was before migration 032 (payrollLifecycle.ts at the previous commit).
const OLD_SQL = `WITH made AS (
       INSERT INTO transfers (id, payroll_request_id, transfer_type, status, amount, currency_code, amount_split_id, payout_instruction_json,
         created_at, position, batch_id)
       SELECT gen_random_uuid(), s.payroll_request_id, 'BANK_TO_BENEFICIARY', 'PENDING', s.quoted_amount, $2, s.id,
              ${payoutInstructionJson('s', 's.quoted_amount')}, $3,
              (SELECT COALESCE(max(position) + 1, 0) FROM transfers WHERE payroll_request_id = $1) + row_number() OVER (ORDER BY s.position) - 1, $4
         FROM amount_splits s
        WHERE s.payroll_request_id = $1 AND s.payout_transfer_id IS NULL
        ORDER BY s.position
       RETURNING id, amount_split_id
     ), linked AS (
       UPDATE amount_splits s SET payout_transfer_id = m.id FROM made m WHERE s.id = m.amount_split_id RETURNING 1
     )
     SELECT count(*)::int AS made FROM linked`;
const OLD_SCHEMA = `DROP INDEX transfers_payout_of_split; DROP TRIGGER amount_splits_payout_updated ON amount_splits;
  CREATE TRIGGER amount_splits_payout_linked AFTER UPDATE ON amount_splits
  REFERENCING NEW TABLE AS linked FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('linked', 'payout_transfer_id transfers id nolock')`;

const rolledBack = new Error('rolled back');
async function timed(kind: 'old' | 'new'): Promise<number> {
  let ms = 0;
  await db
    .transaction(async (tx) => {
      if (kind === 'old') await tx.exec(OLD_SCHEMA);
      const t0 = performance.now();
      const made =
        kind === 'old'
          ? (await tx.query<{ made: number }>(OLD_SQL, [req, 'AED', new Date(), batch!.id]))[0]!.made
          : await insertPayoutsOfSplits(tx, { id: req, currencyCode: 'AED', batchId: batch!.id }, new Date());
      ms = performance.now() - t0;
      if (made !== n) throw new Error(`made ${made}`);
      throw rolledBack;
    })
    .catch((e) => {
      if (e !== rolledBack) throw e;
    });
  for (const t of ['amount_splits', 'transfers']) await db.query(`VACUUM ${t}`);
  return ms;
}
const paid = (await db.query('SELECT 1 FROM transfers WHERE payroll_request_id = $1 LIMIT 1', [req])).length > 0;
if (paid && process.env.WRITES !== '0') console.log('the request has its payouts (an earlier run read it): time the writes on another size or database');
if (!paid && process.env.WRITES !== '0') {
  await timed('new');
  await timed('old'); // warm-up pair, not reported
  for (let i = 0; i < pairs; i++) {
    const order: Array<'old' | 'new'> = i % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
    const got: Record<string, number> = {};
    for (const kind of order) got[kind] = await timed(kind);
    console.log(`pair ${i + 1}: with the split link ${got.old!.toFixed(0)} ms, without ${got.new!.toFixed(0)} ms, ratio ${(got.new! / got.old!).toFixed(2)}`);
  }
}
if (process.env.READS !== '0') {
  // Reads: the payouts made (committed), each split's link read from its payout, or stored on it as before.
  if ((await db.query('SELECT 1 FROM transfers WHERE payroll_request_id = $1 LIMIT 1', [req])).length === 0) {
    await db.transaction((tx) => insertPayoutsOfSplits(tx, { id: req, currencyCode: 'AED', batchId: batch!.id }, new Date()));
  }
  const read = async () => {
    const t0 = performance.now();
    if (n <= 10000) {
      const found = await findPayrollRequestJson(db, req, null);
      if (!found!.splitsParts.join('').includes('"payoutTransferId":"')) throw new Error('no link');
    } else {
      await payrollItemsBytes(db, req);
      for (let after = -1; ;) {
        const page = await findPayrollSplitsJson(db, { requestId: req, customerId: null, afterPosition: after, limit: 1000 });
        if (!page!.more) break;
        after = page!.lastPosition!;
      }
    }
    return performance.now() - t0;
  };
  const setLink = async (stored: boolean) => {
    await db.query(
      stored
        ? 'UPDATE amount_splits s SET payout_transfer_id = p.id FROM transfers p WHERE p.amount_split_id = s.id AND s.payroll_request_id = $1'
        : 'UPDATE amount_splits SET payout_transfer_id = NULL WHERE payroll_request_id = $1',
      [req],
    );
    for (const t of ['amount_splits', 'transfers']) await db.query(`VACUUM ANALYZE ${t}`);
  };
  for (let i = 0; i < pairs; i++) {
    const got: Record<string, number[]> = { payout: [], stored: [] };
    for (const stored of i % 2 === 0 ? [false, true] : [true, false]) {
      await setLink(stored);
      await read();
      for (let k = 0; k < (n <= 1000 ? 21 : 3); k++) got[stored ? 'stored' : 'payout']!.push(await read());
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(n <= 1000 ? 1 : 0);
    console.log(
      `reads ${n <= 10000 ? 'whole GET' : 'length + pages of 1000'}: link read from the payout ${med(got.payout!)} ms, stored on the split ${med(got.stored!)} ms (medians of 3)`,
    );
  }
  await setLink(false);
}
await db.close();
