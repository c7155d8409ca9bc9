// npm run -s token -- --user <userId> [--ttl <seconds>]: prints a bearer token signed with JWT_SECRET.
// The user must exist, or the token would be refused later with a vaguer "The access token is invalid":
// with DATABASE_URL the users table is asked; on the embedded database (whose data directory the
// running server holds open) the world file it was seeded from (WORLD_FILE, default worlds/demo.json).
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { signAccessToken } from '../src/http/tokens.js';
import { PostgresDatabase } from '../src/store/postgres.js';
import { findUser } from '../src/store/referenceData.js';

const USAGE = `usage: npm run -s token -- --user <userId (uuid)> [--ttl <seconds, default 3600>]

Prints a bearer token for a user of the world (demo: Dana, customer 7b1e0003-0000-4000-8000-000000000001;
Omar, admin 7b1e0003-0000-4000-8000-000000000003), signed with JWT_SECRET. The user is looked up in
DATABASE_URL when set, else in WORLD_FILE (default worlds/demo.json).`;

function fail(message: string, status = 2): never {
  console.error(message);
  process.exit(status);
}

function parse(): { user: string; ttl: number } {
  let values: { user?: string | undefined; ttl?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({ options: { user: { type: 'string' }, ttl: { type: 'string', default: '3600' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const ttl = Number(values.ttl);
  if (!values.user || !/^[0-9a-f-]{36}$/i.test(values.user) || !Number.isInteger(ttl) || ttl <= 0) fail(USAGE);
  return { user: values.user, ttl };
}

/** Why the user cannot sign in, or undefined when it exists. */
async function unknownUser(config: ReturnType<typeof loadConfig>, userId: string): Promise<string | undefined> {
  if (config.databaseUrl) {
    const db = await PostgresDatabase.open(config.databaseUrl, { maxConnections: 1 });
    try {
      return (await findUser(db, userId)) ? undefined : `no user ${userId} in the database at DATABASE_URL`;
    } finally {
      await db.close();
    }
  }
  if (!config.worldFile) return undefined; // nothing to check against: the data directory was seeded by hand
  const world = JSON.parse(await readFile(config.worldFile, 'utf8')) as { users?: { id?: string }[] };
  return world.users?.some((candidate) => candidate.id === userId) ? undefined : `no user ${userId} in ${config.worldFile}`;
}

const { user, ttl } = parse();
const config = loadConfig();
if (config.jwt.jwksUrl) fail('JWT_JWKS_URL is set: tokens come from your identity provider, not from this script');
const hint = config.databaseUrl
  ? ' (npm start migrates and seeds the database at DATABASE_URL)'
  : ' (set WORLD_FILE to the world the database was seeded from)';
const problem = await unknownUser(config, user).catch((error: unknown) => fail(`cannot check that user ${user} exists: ${(error as Error).message}${hint}`, 1));
if (problem) fail(`${problem}: the service would refuse its token. Pick a user of the world (npm run -s token -- --help).`, 1);
console.log(await signAccessToken(config.jwt, user, ttl));
