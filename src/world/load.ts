/**
 * The world loader: reference data (currencies, customers, users, accounts, beneficiaries,
 * rates, fee schedules) and optional demo payroll requests, read from a JSON file that
 * src/world/schema describes. Validation is complete before anything is written; the rows are
 * computed here and written by src/store/reference/worldRows.ts in one transaction.
 */
import { readFile } from 'node:fs/promises';
import type { Database, Queryable } from '../store/database/db.js';
import { postJournalEntries } from '../store/ledger/ledger.js';
import { takeStartupLock } from '../store/database/startupLock.js';
import { hasNoCustomer, insertWorldRows } from '../store/reference/worldRows.js';
import { balanceRows } from './rows/balanceRows.js';
import { payrollRows } from './rows/payrollRows.js';
import { referenceRows } from './rows/referenceRows.js';
import { settleWorld } from './settlement.js';
import { validateWorld } from './validate.js';
import { WorldValidationError } from './validationError.js';

/**
 * Validates the world and computes its settlement (both may refuse it), then writes all of it in
 * one transaction: the rows, then the journal that gives every account currency its balance.
 */
export async function loadWorld(db: Database, input: unknown): Promise<void> {
  const write = prepareWorld(input);
  await db.transaction(write);
}

/** Validates and settles the world (either may refuse it); the function returned writes it in `tx`. */
function prepareWorld(input: unknown): (tx: Queryable) => Promise<void> {
  const world = validateWorld(input);
  const settlement = settleWorld(world);
  const rows = { ...referenceRows(world), ...balanceRows(world), ...payrollRows(world.payrollRequests ?? [], settlement.requests) };
  return async (tx) => {
    await insertWorldRows(tx, rows);
    await postJournalEntries(tx, settlement.journal);
  };
}

/** True when no customer exists yet (no world has been loaded). */
export function isDatabaseEmpty(db: Database): Promise<boolean> {
  return hasNoCustomer(db);
}

/**
 * Reads a world file and loads it when the database is empty. Returns whether it loaded. The
 * check and the load are one transaction under the start-up lock, so of several processes starting
 * at once on an empty database exactly one loads the world and the others find it loaded.
 */
export async function seedIfEmpty(db: Database, file: string): Promise<boolean> {
  if (!(await isDatabaseEmpty(db))) return false;
  const text = await readFile(file, 'utf8');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new WorldValidationError('world', `${file} is not valid JSON (${(error as Error).message})`);
  }
  const write = prepareWorld(input);
  return db.transaction(async (tx) => {
    await takeStartupLock(tx);
    if (!(await hasNoCustomer(tx))) return false;
    await write(tx);
    return true;
  });
}
