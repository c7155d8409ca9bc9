/**
 * The world loader: reference data (currencies, customers, users, accounts, beneficiaries,
 * rates, fee schedules) and optional demo payroll requests, read from a JSON file that
 * src/world/schema describes. Validation is complete before anything is written; the rows are
 * computed here and written by src/store/worldRows.ts in one transaction.
 */
import { readFile } from 'node:fs/promises';
import type { Database } from '../store/db.js';
import { hasNoCustomer, insertWorldRows, type WorldTableRows } from '../store/worldRows.js';
import { balanceRows } from './rows/balanceRows.js';
import { payrollRows } from './rows/payrollRows.js';
import { referenceRows } from './rows/referenceRows.js';
import type { World } from './types.js';
import { validateWorld } from './validate.js';
import { WorldValidationError } from './validationError.js';

function worldRows(world: World): WorldTableRows {
  return { ...referenceRows(world), ...balanceRows(world), ...payrollRows(world.payrollRequests ?? []) };
}

/** Validates the world, then writes all of it in one transaction. */
export async function loadWorld(db: Database, input: unknown): Promise<void> {
  const rows = worldRows(validateWorld(input));
  await db.transaction((tx) => insertWorldRows(tx, rows));
}

/** True when no customer exists yet (no world has been loaded). */
export function isDatabaseEmpty(db: Database): Promise<boolean> {
  return hasNoCustomer(db);
}

/** Reads a world file and loads it when the database is empty. Returns whether it loaded. */
export async function seedIfEmpty(db: Database, file: string): Promise<boolean> {
  if (!(await isDatabaseEmpty(db))) return false;
  const text = await readFile(file, 'utf8');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new WorldValidationError('world', `${file} is not valid JSON (${(error as Error).message})`);
  }
  await loadWorld(db, input);
  return true;
}
