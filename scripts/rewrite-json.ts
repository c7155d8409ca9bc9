/**
 * npm run store:rewrite-json [-- <rows per transaction>]
 * Rewrites, in batches, the stored JSON of the splits and transfers that the current JSON writers
 * would write differently (after a migration that changed the wire format: docs/operations.md), on
 * the configured database (DATABASE_URL, else the embedded one in DATA_DIR, default ./data). Safe
 * while the service runs, and to stop and run again: a row already current is not written.
 */
import { rewriteStaleJson } from '../src/store/derivedObjects.js';
import { openDatabase } from '../src/store/open.js';

const DEFAULT_BATCH = 5_000;

async function main(): Promise<number> {
  const batchSize = process.argv[2] === undefined ? DEFAULT_BATCH : Number(process.argv[2]);
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    console.error('usage: npm run store:rewrite-json [-- <rows per transaction, default 5000>]');
    return 2;
  }
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? './data' });
  try {
    const rewritten = await rewriteStaleJson(db, batchSize, (table, count) => {
      if (count > 0) console.log(`${table}: ${count} rewritten`);
    });
    for (const [signature, count] of Object.entries(rewritten)) console.log(`${signature}: ${count} rows rewritten in all`);
    return 0;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
