/**
 * The server's start seeds an empty database in a process of its own (src/composition/seedProcess.ts),
 * so the world is never held by the server: the child loads a world once, finds it loaded the second
 * time, and a world its checks refuse comes back as the WorldValidationError naming the path.
 */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedInChildProcess } from '../../../src/composition/seedProcess.js';
import { WorldValidationError } from '../../../src/world/validationError.js';
import { testWorld } from '../../fixtures/world.js';
import { emptyDatabase, type FreshDatabase } from '../../support/database.js';

const databases: FreshDatabase[] = [];
const files: string[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  for (const file of files) await rm(file, { force: true });
});

describe('seedInChildProcess', () => {
  it('loads the world into an empty database in a child process, and only checks it the second time', async () => {
    const database = await emptyDatabase();
    databases.push(database);
    const file = join(tmpdir(), `payroll-seed-${process.pid}-${Date.now()}.json`);
    files.push(file);
    await writeFile(file, JSON.stringify(testWorld));
    const first = await seedInChildProcess(database.url, file);
    expect(first.loaded).toBe(true);
    expect(first.peakRssMb).toBeGreaterThan(0);
    const [row] = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM beneficiaries');
    expect(row!.n).toBe(testWorld.beneficiaries.length);
    expect((await seedInChildProcess(database.url, file)).loaded).toBe(false);
  });

  it('reports a world the checks refuse as a WorldValidationError naming its path, and writes nothing', async () => {
    const database = await emptyDatabase();
    databases.push(database);
    const world = structuredClone(testWorld);
    world.beneficiaries[0]!.nationality = 'ARE';
    const file = join(tmpdir(), `payroll-seed-bad-${process.pid}-${Date.now()}.json`);
    files.push(file);
    await writeFile(file, JSON.stringify(world));
    const refused = await seedInChildProcess(database.url, file).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorldValidationError);
    expect((refused as WorldValidationError).path).toBe('world.beneficiaries[0].nationality');
    const [row] = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
    expect(row!.n).toBe(0);
  });
});
