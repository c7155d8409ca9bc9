/**
 * npm run seed -- <world.json>
 * Loads a world file into the configured database (DATABASE_URL, else the embedded one in
 * DATA_DIR, default ./data). Refuses when the database already holds a world.
 */
import { readFile } from 'node:fs/promises';
import { analyze, openDatabase } from '../src/store/database/open.js';
import { isDatabaseEmpty, loadWorld } from '../src/world/load.js';
import { WorldValidationError } from '../src/world/validationError.js';

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npm run seed -- <world.json>');
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? './data' });
  try {
    if (!(await isDatabaseEmpty(db))) {
      console.error('refusing to seed: the database already holds a world (customers exist). Use an empty database.');
      return 1;
    }
    await loadWorld(db, input);
    await analyze(db);
    console.log(`loaded ${file}`);
    return 0;
  } catch (error) {
    if (error instanceof WorldValidationError) {
      console.error(`invalid world ${file}: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
