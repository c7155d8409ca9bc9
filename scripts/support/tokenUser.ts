// Who `npm run token` signs for: a user named by id (--user) or by email address (--email), looked up
// where the running service finds it — the database at DATABASE_URL when set, else the world file the
// embedded database was seeded from (WORLD_FILE; the running server holds the data directory open).
import { readFile } from 'node:fs/promises';
import type { loadConfig } from '../../src/config/config.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { findUser, findUsersByEmail } from '../../src/store/reference/referenceData.js';

type Config = ReturnType<typeof loadConfig>;

/** How the user was named on the command line: exactly one of the two. */
export type UserName = { user: string } | { email: string };

/** The user's id, or why no token can be signed for it. */
export type Resolved = { id: string } | { problem: string };

interface WorldUser {
  id?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  role?: string;
  permissions?: string[];
  customerId?: string;
}

interface World {
  users?: WorldUser[];
  customers?: { id?: string; companyLegalName?: string }[];
}

const readWorld = async (file: string): Promise<World> => JSON.parse(await readFile(file, 'utf8')) as World;

async function worldUsers(file: string): Promise<WorldUser[]> {
  return (await readWorld(file)).users ?? [];
}

const sameEmail = (a: string | undefined, b: string): boolean => a?.toLowerCase() === b.toLowerCase();

function oneOf(ids: string[], email: string, where: string): Resolved {
  if (ids.length === 1) return { id: ids[0]! };
  if (ids.length === 0) return { problem: `no user with email ${email} in ${where}` };
  return { problem: `${ids.length} users have email ${email} in ${where} (${ids.join(', ')}): name one with --user <userId>` };
}

async function inDatabase(url: string, name: UserName): Promise<Resolved> {
  const db = await PostgresDatabase.open(url, { maxConnections: 1 });
  try {
    const where = 'the database at DATABASE_URL';
    if ('email' in name)
      return oneOf(
        (await findUsersByEmail(db, name.email)).map((row) => row.id),
        name.email,
        where,
      );
    return (await findUser(db, name.user)) ? { id: name.user } : { problem: `no user ${name.user} in ${where}` };
  } finally {
    await db.close();
  }
}

export async function resolveUser(config: Config, name: UserName): Promise<Resolved> {
  if (config.databaseUrl) return inDatabase(config.databaseUrl, name);
  if (!config.worldFile) {
    // Nothing to check against: the data directory was seeded by hand. An id is taken on trust.
    return 'email' in name ? { problem: 'WORLD_FILE is empty and DATABASE_URL unset: name the user with --user <userId>' } : { id: name.user };
  }
  const users = await worldUsers(config.worldFile);
  if ('email' in name)
    return oneOf(
      users.filter((u) => sameEmail(u.email, name.email)).flatMap((u) => (u.id ? [u.id] : [])),
      name.email,
      config.worldFile,
    );
  return users.some((u) => u.id === name.user) ? { id: name.user } : { problem: `no user ${name.user} in ${config.worldFile}` };
}

/** The world file's users, one line each (email, role, name, id), for --help; empty when unreadable. */
export async function describeWorldUsers(worldFile: string | undefined): Promise<string> {
  if (!worldFile) return '';
  const world = await readWorld(worldFile).catch((): World => ({}));
  const users = world.users ?? [];
  if (users.length === 0) return '';
  const company = (id: string | undefined): string => world.customers?.find((customer) => customer.id === id)?.companyLegalName ?? '';
  const rows = users.map((u) => [
    u.email ?? '',
    [u.role, ...(u.permissions ?? [])].join(', '),
    [`${u.firstName ?? ''} ${u.lastName ?? ''}`.trim(), company(u.customerId)].filter(Boolean).join(', '),
    u.id ?? '',
  ]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd());
  return `\n\nUsers of ${worldFile}:\n${lines.join('\n')}`;
}
