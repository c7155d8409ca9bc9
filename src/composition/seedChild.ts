/**
 * The world's seeding, run as a process of its own by the server's start (composition/seedProcess.ts):
 * parsing, validating and writing a world file of 100,000 beneficiaries grows a process by hundreds
 * of megabytes that V8 keeps once the work is done; in a child they go back to the system when it exits.
 * Database URL in PAYROLL_SEED_DATABASE_URL (the environment, not the command line, which `ps` shows),
 * the world file as the one argument. Answers with one JSON line on stdout: the outcome, or for a world
 * the checks refuse `{"refused":{"path","problem"}}` and exit code 3.
 */
import { analyze, openDatabase } from '../store/database/open.js';
import { seedIfEmpty } from '../world/load.js';
import { WorldValidationError } from '../world/validationError.js';
import { REFUSED_WORLD, type SeedRefusal } from './seedProcess.js';

async function seed(): Promise<number> {
  const databaseUrl = process.env.PAYROLL_SEED_DATABASE_URL;
  const file = process.argv[2];
  if (!databaseUrl || !file) {
    process.stderr.write('usage: PAYROLL_SEED_DATABASE_URL=… node seedChild.js <world.json>\n');
    return 2;
  }
  // The parent's death closes the channel: a seeding nobody waits for stops (its transaction rolls back).
  process.on('disconnect', () => process.exit(1));
  const db = await openDatabase({ databaseUrl, dataDir: '' }, { maxConnections: 1, applicationName: 'payroll-seed' });
  try {
    const loaded = await seedIfEmpty(db, file);
    // Fresh statistics, or the planner scans whole tables (autovacuum may be off, as on the CI machines).
    if (loaded) await analyze(db);
    // maxRSS is in kilobytes: the seeding's own peak, which the server's process never holds.
    process.stdout.write(`${JSON.stringify({ loaded, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof WorldValidationError)) throw error;
    const refusal: SeedRefusal = { refused: { path: error.path, problem: error.problem } };
    process.stdout.write(`${JSON.stringify(refusal)}\n`);
    return REFUSED_WORLD;
  } finally {
    await db.close();
  }
}

seed().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
