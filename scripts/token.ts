// npm run -s token -- (--user <userId> | --email <address>) [--ttl <seconds>]: prints a bearer token
// signed with JWT_SECRET. The user must exist, or the token would be refused later with a vaguer "The
// access token is invalid": see scripts/support/tokenUser.ts for where it is looked up. --help lists
// the world file's users, so a reader needs no id table to start.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/config.js';
import { signAccessToken } from '../src/http/access/tokens.js';
import { type UserName, describeWorldUsers, resolveUser } from './support/tokenUser.js';

const USAGE = `usage: npm run -s token -- (--user <userId (uuid)> | --email <address>) [--ttl <seconds, default 3600>]

Prints a bearer token for a user of the world, named by id or by email address, signed with
JWT_SECRET. The user is looked up in DATABASE_URL when set, else in WORLD_FILE (default
worlds/demo.json).`;

function fail(message: string, status = 2): never {
  console.error(message);
  process.exit(status);
}

async function parse(config: ReturnType<typeof loadConfig>): Promise<{ name: UserName; ttl: number }> {
  let values: { user?: string | undefined; email?: string | undefined; ttl?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      options: { user: { type: 'string' }, email: { type: 'string' }, ttl: { type: 'string', default: '3600' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE + (await describeWorldUsers(config.worldFile)));
    process.exit(0);
  }
  const ttl = Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl <= 0) fail(USAGE);
  if (values.user !== undefined && values.email === undefined && /^[0-9a-f-]{36}$/i.test(values.user)) return { name: { user: values.user }, ttl };
  if (values.email !== undefined && values.user === undefined && values.email.includes('@')) return { name: { email: values.email }, ttl };
  return fail(USAGE);
}

const config = loadConfig();
const { name, ttl } = await parse(config);
if (config.jwt.jwksUrl) fail('JWT_JWKS_URL is set: tokens come from your identity provider, not from this script');
const hint = config.databaseUrl
  ? ' (npm start migrates and seeds the database at DATABASE_URL)'
  : ' (set WORLD_FILE to the world the database was seeded from)';
const named = 'user' in name ? `user ${name.user}` : `the user with email ${name.email}`;
const resolved = await resolveUser(config, name).catch((error: unknown) => fail(`cannot look up ${named}: ${(error as Error).message}${hint}`, 1));
if ('problem' in resolved) fail(`${resolved.problem}: the service would refuse its token. Pick a user of the world (npm run -s token -- --help).`, 1);
console.log(await signAccessToken(config.jwt, resolved.id, ttl));
