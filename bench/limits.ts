/**
 * `npx tsx bench/limits.ts [--seconds 10] [--database-url postgres://…]`: the attacks of the
 * "limits after work" review, measured against the real server process in production settings
 * (NODE_ENV=production, default rate limits), so that the figures before and after the fix can be
 * compared on the same machine:
 *
 *   1. junk-token flood: 1,000 requests, each with a different junk bearer token → how many 401,
 *      how many 429;
 *   2. big-body flood: 8 connections posting 1.8 MB bodies with junk tokens for `seconds`, while a
 *      neighbour customer GETs its own list every 50 ms → the neighbour's latency;
 *   3. heavy-estimate neighbour: 8 loops of 10,000-entry estimates by one customer (with its valid
 *      token) for `seconds`, the neighbour GETting as above → the neighbour's latency, and how many
 *      of the heavy estimates were answered 200 and 429.
 *
 * Each latency figure is compared with the neighbour alone (no load) just before. The load average
 * of the machine is printed with the figures: they move with whatever else shares it. `--env
 * NAME=value` sets a server setting for the run (RATE_LIMIT_ANONYMOUS_PER_MINUTE=1000000 shows the
 * 8 KB body cap on its own, without the address budget answering first); `--only junk|big-body|heavy`
 * runs some scenarios.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { signAccessToken } from '../src/http/access/tokens.js';
import { freePort } from '../src/store/database/embedded.js';
import { builtServerEntry, start, stop, waitFor } from './processes.js';
import { benchIds, benchWorld, estimateBody } from './world.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'database-url': { type: 'string' },
    // Server settings for this run, e.g. --env HEAVY_OPERATIONS_PER_CUSTOMER=1 (repeatable).
    env: { type: 'string', multiple: true, default: [] },
    // Only these scenarios: junk, big-body, heavy (repeatable; all when absent).
    only: { type: 'string', multiple: true, default: [] },
  },
});
const wanted = (name: string) => args.only.length === 0 || args.only.includes(name);
const SECONDS = Number(args.seconds);
const log = (...parts: unknown[]) => console.error('[limits]', ...parts);

const neighbour = { customer: 'be7c0002-0000-4000-8000-00000000000b', user: 'be7c0003-0000-4000-8000-00000000000b' };

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(0);
  return `n=${sorted.length} p50 ${f(percentile(sorted, 50))} ms, p95 ${f(percentile(sorted, 95))} ms, max ${f(sorted[sorted.length - 1] ?? NaN)} ms`;
}

/** The neighbour's GET of its own (empty) list every 50 ms until `until`; its latencies. */
async function neighbourLatencies(url: string, token: string, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    const response = await fetch(`${url}/v1/customers/payroll/requests?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the neighbour got ${response.status}`);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return latencies;
}

function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${status}×${n}`)
    .join(', ');
}

async function junkTokenFlood(url: string): Promise<string> {
  const statuses: number[] = [];
  for (let batch = 0; batch < 50; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const junk = `${randomBytes(24).toString('base64url')}.${randomBytes(48).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
        const response = await fetch(`${url}/v1/customers/payroll/requests`, { headers: { Authorization: `Bearer ${junk}` } });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    statuses.push(...answers);
  }
  return tally(statuses);
}

/** `connections` loops of `send` until `until`; the statuses they got (network errors as 0). */
async function loops(connections: number, until: number, send: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        try {
          const response = await send();
          await response.arrayBuffer();
          statuses.push(response.status);
        } catch {
          statuses.push(0);
        }
      }
    }),
  );
  return statuses;
}

async function scenario(name: string, url: string, token: string, load: (until: number) => Promise<number[]>): Promise<void> {
  const alone = await neighbourLatencies(url, token, Date.now() + 3000);
  const until = Date.now() + SECONDS * 1000;
  const [loaded, statuses] = await Promise.all([neighbourLatencies(url, token, until), load(until)]);
  console.log(
    `${name}: neighbour alone ${summary(alone)}; under load ${summary(loaded)}; load answers ${tally(statuses)}; loadavg ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

async function main(): Promise<void> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'payroll-limits-'));
  const world = benchWorld();
  world.customers.push({ id: neighbour.customer, firstName: 'Nora', lastName: 'Neighbour', companyLegalName: 'Neighbour LLC' });
  world.users.push({
    id: neighbour.user,
    firstName: 'Nora',
    lastName: 'Neighbour',
    email: 'nora@neighbour.example',
    role: 'customer',
    customerId: neighbour.customer,
  });
  const worldFile = path.join(tmp, 'world.json');
  await writeFile(worldFile, JSON.stringify(world));
  let databaseUrl = '';
  let drop: (() => Promise<void>) | undefined;
  if (args['database-url']) {
    const name = `payroll_limits_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: args['database-url'] });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    drop = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
    const target = new URL(args['database-url']);
    target.pathname = `/${name}`;
    databaseUrl = target.toString();
  }
  const jwt = { secret: randomBytes(32).toString('base64url'), jwksUrl: undefined, issuer: undefined, audience: undefined };
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(tmp, 'server.log');
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: 'memory://',
    WORLD_FILE: worldFile,
    JWT_SECRET: jwt.secret,
    FEE_HASH_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    WORKER_IN_PROCESS: 'false',
    ...Object.fromEntries(args.env.map((pair) => pair.split(/=(.*)/s).slice(0, 2))),
  };
  const server = start([builtServerEntry()], env, logFile);
  try {
    await waitFor(server, async () => (await fetch(`${url}/healthz`)).ok, 'the server', logFile);
    log(`server on ${url} (${databaseUrl ? 'PostgreSQL' : 'embedded'}), ${SECONDS} s per scenario`);
    const neighbourToken = await signAccessToken(jwt, neighbour.user, 3600);
    const heavyToken = await signAccessToken(jwt, benchIds.user, 3600);
    if (args.env.length > 0) console.log(`server settings: ${args.env.join(' ')}`);
    if (wanted('junk')) console.log(`junk-token flood (1,000 requests, 1,000 junk tokens, 20 at a time): ${await junkTokenFlood(url)}`);
    const bigBody = JSON.stringify({ padding: 'x'.repeat(1_800_000) });
    if (wanted('big-body'))
      await scenario('big-body flood (8 connections, 1.8 MB bodies, junk tokens)', url, neighbourToken, (until) =>
        loops(8, until, () =>
          fetch(`${url}/v1/customers/payroll/estimate`, {
            method: 'POST',
            headers: { Authorization: `Bearer junk.${randomBytes(8).toString('hex')}.x`, 'Content-Type': 'application/json' },
            body: bigBody,
          }),
        ),
      );
    const body = estimateBody(10_000);
    if (wanted('heavy'))
      await scenario('heavy-estimate neighbour (8 loops of 10,000-entry estimates by one customer)', url, neighbourToken, (until) =>
        loops(8, until, () =>
          fetch(`${url}/v1/customers/payroll/estimate`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${heavyToken}`, 'Content-Type': 'application/json' },
            body,
          }),
        ),
      );
  } finally {
    await stop(server);
    await drop?.();
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
