/**
 * npm run migration:wire-format -- <name>
 * Writes src/store/migrations/<next number>_<name>.sql: the split's and transfer's JSON writers as
 * src/store/wireFormat.ts now generates them. Run it after changing the wire format (a test fails
 * until a migration defines the functions the code generates); commit the file with the change.
 * Rows written before keep their JSON until `npm run store:rewrite-json` (docs/operations.md).
 */
import { readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { wireFormatMigrationSql } from '../src/store/derivedObjects.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../src/store/migrations/', import.meta.url));

const HEADER = `-- The split's and transfer's JSON writers (the triggers are migration 011's), as src/store/wireFormat.ts
-- generates them from the spec's schemas. Only the functions change here: rows written before keep
-- their JSON until \`npm run store:rewrite-json\` rewrites, in batches, those whose text differs.
`;

async function main(): Promise<number> {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error('usage: npm run migration:wire-format -- <name in snake_case>');
    return 2;
  }
  const numbers = (await readdir(MIGRATIONS_DIR)).map((file) => Number.parseInt(file, 10)).filter(Number.isFinite);
  const next = String(Math.max(0, ...numbers) + 1).padStart(3, '0');
  const file = `${MIGRATIONS_DIR}${next}_${name}.sql`;
  await writeFile(file, `${HEADER}\n${wireFormatMigrationSql()}`, { flag: 'wx' });
  console.log(`wrote ${file}`);
  return 0;
}

process.exitCode = await main();
