/**
 * The failover test (`npm run test:failover`, a step of .ci/run after the fleet): the fleet's API
 * processes and worker on a pg_auto_failover formation (a monitor, a primary and a synchronous
 * standby, scripts/failover-formation.sh) with the ISO 20022 bank rail and the bank simulator,
 * DATABASE_URL naming both nodes with target_session_attrs=read-write. While payroll lifecycles run,
 * the primary is SIGKILLed at named moments — a session of it inside the statement that marks the
 * moment, or still in that statement's transaction — either its postmaster alone (its keeper
 * restarts it) or its whole node (keeper and PostgreSQL: the standby is promoted and the old
 * primary rejoins as a standby). Then every fleet invariant, plus: every Idempotency-Key answered
 * 2xx answers the same on replay (its effect survived the promotion), one pain.001 per MsgId, and no
 * webhook event delivered with two bodies. The time from each kill to the first 2xx is printed.
 * Skipped, saying so, when not root or without pg_autoctl (.ci/run installs it).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { ledgerMismatches } from '../../src/store/ledger/ledger.js';
import { ids } from '../fixtures/world.js';
import { killLeftovers } from '../support/processes.js';
import { redisAnswers } from '../support/redis.js';
import { expectedEventIds, paymentProblems, payoutOutcomes, undeliveredCounts } from '../fleet/checks.js';
import { FleetClient, dataOf, pause, rawRequest } from '../fleet/client.js';
import { Fleet } from '../fleet/fleet.js';
import { type Outcome, planLifecycles, runLifecycle } from '../fleet/lifecycles.js';
import { WebhookReceiver } from '../fleet/receiver.js';
import { writeFleetWorld } from '../fleet/world.js';
import { Formation, NODES, type NodeName } from './formation.js';

const FORMATION_PORT = Number(process.env.FAILOVER_PORT ?? 6500);
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const APIS = 2;
const WORKERS = 1;
const LIFECYCLES = 16;
const PER_REQUEST = 3;
/** Lifecycles start this far apart, so that creations, FX records and bank files go on across every kill. */
const STAGGER_MS = 6_000;
const LIFECYCLES_MS = 300_000;
const WEBHOOKS_MS = 60_000;
const REPLAY_MS = 30_000;
/** The target for a kill to the first 2xx; printed beside each figure, not asserted (a loaded host is slower). */
const TARGET_RECOVERY_MS = 30_000;
const JWT_SECRET = `failover-jwt-${randomBytes(16).toString('hex')}`;

/** The moments of a payroll at which the primary dies: the statement that marks each, and how it dies. */
const MOMENTS: ReadonlyArray<{ name: string; pattern: RegExp; how: 'postmaster' | 'node' }> = [
  { name: 'a creation', pattern: /INSERT INTO (payroll_requests|amount_splits)/, how: 'node' },
  { name: "the FX record's legs", pattern: /INSERT INTO transfers|UPDATE transfers/, how: 'postmaster' },
  { name: "a payout batch's file", pattern: /INSERT INTO bank_file_(batches|items)|written_at/, how: 'node' },
  { name: 'a camt file applied', pattern: /bank_books_messages|bank_matched_bookings/, how: 'node' },
];
/** How long to wait for a moment's statement before killing anyway (said in the summary). */
const MOMENT_WAIT_MS = 40_000;

const isRoot = process.getuid?.() === 0;
const hasAutoctl = (() => {
  try {
    execFileSync('bash', ['-c', 'command -v pg_autoctl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const absent = [
  !isRoot && 'not root (pg_autoctl runs as the postgres OS user)',
  !hasAutoctl && 'no pg_autoctl (apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli)',
].filter(Boolean);
if (absent.length > 0) console.log(`[failover] skipped: ${absent.join('; ')}`);

interface Kill {
  moment: string;
  how: 'postmaster' | 'node';
  node: NodeName;
  caught: boolean;
  /** Whether the killed node refused connections just after the kill (a whole node) or at least once after it. */
  died: boolean;
  /** Kill to the first 2xx of a call that needs the database. */
  recoveryMs: number;
  primaryAfter: NodeName;
}

describe.skipIf(absent.length > 0)('failover: the primary killed at four moments of payrolls on a pg_auto_failover formation', () => {
  const receiver = new WebhookReceiver();
  let dir = '';
  let formation: Formation | undefined;
  let fleet: Fleet | undefined;
  let simulator: BankSimulator | undefined;
  let db: PostgresDatabase | undefined;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
    dir = await mkdtemp(join(tmpdir(), 'payroll-failover-'));
    // A directory of its own under the temporary one: the postgres OS user must reach it, not the test's.
    formation = new Formation(`${dir}-formation`, FORMATION_PORT);
    await formation.start();
  }, 360_000);

  afterAll(async () => {
    await fleet?.stopAll().catch(() => undefined);
    simulator?.stop();
    killLeftovers();
    await db?.close().catch(() => undefined);
    await receiver.close();
    await formation?.stop().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 180_000);

  it('every invariant holds, every 2xx effect survives, and the recovery times are printed', async () => {
    const started = Date.now();
    const worldFile = join(dir, 'world.json');
    const world = await writeFleetWorld(worldFile, LIFECYCLES, PER_REQUEST);
    await withPartnerBankIban(worldFile);
    const bank = { BANK_OUTBOX_DIR: join(dir, 'bank', 'outbox'), BANK_INBOX_DIR: join(dir, 'bank', 'inbox') };
    for (const folder of Object.values(bank)) await mkdir(folder, { recursive: true });
    const url = formation!.url;
    fleet = new Fleet(await fleetEnv(worldFile, url, bank));
    await fleet.plan(APIS, WORKERS);
    const cold = await fleet.startAll(120_000);
    expect(cold.down, 'processes that did not come up').toEqual([]);
    simulator = new BankSimulator(bank, url);
    db = await PostgresDatabase.open(url, { maxConnections: 2 });
    const token = (userId: string) => signAccessToken({ secret: JWT_SECRET, jwksUrl: undefined, issuer: undefined, audience: undefined }, userId, 3600);
    const client = new FleetClient(fleet.instances, token);
    // 503s for the length of a failover (about 15 s), at most 2 s apart, then some.
    client.maxAttempts = 40;
    const hookUrl = await receiver.start();
    const endpoint = dataOf<{ id: string; secret: string }>(
      await client.call(
        'POST',
        '/v1/customers/webhook-endpoints',
        ids.userA,
        { url: hookUrl, eventTypes: EVENT_TYPES, description: 'failover test' },
        'failover-webhook',
      ),
      201,
      'register the webhook endpoint',
    );
    receiver.secret = endpoint.secret;

    const plans = planLifecycles(LIFECYCLES, PER_REQUEST, world.beneficiaryIds, (id) => world.failing.has(id));
    const deadline = Date.now() + LIFECYCLES_MS;
    client.giveUpAt = deadline + 20_000;
    const outcomes = Promise.all(plans.map(async (plan) => (await pause(plan.index * STAGGER_MS), runLifecycle(client, plan, deadline))));
    const kills = await killAtMoments(formation!, fleet, token);
    const results = await outcomes;
    const requestIds = results.flatMap((outcome) => (outcome.requestId ? [outcome.requestId] : []));
    const outage = await bothNodesDown(formation!, fleet, token);
    await formation!.waitForPair(180_000);
    await firstSuccess(fleet, token, Date.now() + 120_000);
    await untilAnswers(db);
    const missing = await waitForWebhooks(db, endpoint.id, receiver);
    const replayMismatches = await client.replayKeys(REPLAY_MS);
    await fleet.stopAll();
    simulator.stop();
    await untilAnswers(db);

    const wrong = results.filter((outcome) => outcome.error || outcome.status !== outcome.plan.expected).map(describeOutcome);
    expect.soft(fleet.unexpectedExits, 'processes that exited by themselves').toEqual([]);
    expect
      .soft(client.findingSummary(), `5xx other than 503, connection errors, calls without an answer; warnings:\n${fleet.warnings().join('\n')}`)
      .toEqual([]);
    expect.soft(wrong, 'lifecycles that did not end as planned').toEqual([]);
    expect.soft(await paymentProblems(db, requestIds), 'splits not paid exactly once').toEqual([]);
    expect.soft(await ledgerMismatches(db), 'ledger: a currency not summing to zero, or a balance other than its postings').toEqual([]);
    expect.soft(replayMismatches, 'Idempotency-Keys answering otherwise after the failovers (a 2xx whose effect was lost)').toEqual([]);
    expect.soft(await missingRequests(db, requestIds), 'requests answered 201 and absent from the new primary').toEqual([]);
    expect
      .soft(await paymentFileProblems(db, bank.BANK_OUTBOX_DIR), 'pain.001 files: a MsgId twice, or a batch recorded as written without its file')
      .toEqual([]);
    expect.soft(missing, 'webhook events never delivered').toEqual([]);
    expect.soft(await undeliveredCounts(db, endpoint.id), 'deliveries not SUCCEEDED').toEqual({});
    expect.soft([...receiver.conflictingBodies], 'webhook event ids delivered with two different bodies').toEqual([]);
    expect.soft(receiver.badSignatures, 'deliveries with a bad signature').toBe(0);
    expect.soft(kills.length, 'kills of the primary').toBeGreaterThanOrEqual(MOMENTS.length);
    expect
      .soft(
        kills.filter((kill) => !kill.died),
        'kills after which the killed primary still took writes',
      )
      .toEqual([]);
    expect
      .soft(
        kills.filter((kill) => kill.how === 'node' && kill.primaryAfter === kill.node),
        'lost nodes not replaced by their standby',
      )
      .toEqual([]);
    expect.soft(simulator.exits, 'bank simulator exits').toEqual([]);
    expect.soft(outage.answers, 'with both nodes down: /readyz and a read answer 503 with Retry-After').toEqual({ readyz: 503, read: 503, retryAfter: true });

    console.log(
      `[failover] ${LIFECYCLES} lifecycles on ${APIS} APIs + ${WORKERS} worker over a primary and a synchronous standby: ` +
        `${JSON.stringify(countBy(results.map((o) => o.status ?? 'ERROR')))}; payouts ${JSON.stringify(await payoutOutcomes(db, requestIds))}; ` +
        `calls ${client.counts.calls}, attempts ${client.counts.attempts}, 503s with Retry-After retried ${client.counts.retryAfter503}; ` +
        `keys replayed ${client.keyed.length}; webhook events ${receiver.deliveries.size} (${receiver.duplicates} duplicate deliveries); total ${Date.now() - started} ms\n` +
        kills
          .map(
            (kill, n) =>
              `[failover] kill ${n + 1}: ${kill.how === 'node' ? 'whole node' : 'postmaster'} of ${kill.node} during ${kill.moment}` +
              `${kill.caught ? '' : ' (its statement not seen in time: killed anyway)'}; primary after: ${kill.primaryAfter}; ` +
              `kill to first 2xx ${kill.recoveryMs} ms (target ≤ ${TARGET_RECOVERY_MS} ms${kill.recoveryMs > TARGET_RECOVERY_MS ? ', MISSED' : ''})`,
          )
          .join('\n') +
        `\n[failover] both nodes down: /readyz ${outage.answers.readyz}, a read ${outage.answers.read} (Retry-After ${outage.answers.retryAfter ? 'set' : 'missing'}); ` +
        `both keepers started again to the first 2xx ${outage.recoveryMs} ms`,
    );
  }, 900_000);
});

const EVENT_TYPES = ['payroll_request.status_changed', 'transfer.status_changed', 'payout.status_changed'];

/** Each moment in turn: wait for a healthy pair, for the moment's statement on the primary, kill, time the recovery, rejoin. */
async function killAtMoments(formation: Formation, fleet: Fleet, token: (userId: string) => Promise<string>): Promise<Kill[]> {
  const kills: Kill[] = [];
  for (const moment of MOMENTS) {
    const node = await formation.waitForPair(180_000);
    const caught = await formation.waitForStatement(node, moment.pattern, MOMENT_WAIT_MS);
    const killedAt = Date.now();
    await formation.kill(node, moment.how);
    const died = (await formation.roleOf(node)) !== 'primary';
    const recoveryMs = (await firstSuccess(fleet, token, killedAt + 120_000)) - killedAt;
    const primaryAfter = NODES.find((n) => n !== node) as NodeName;
    const roles = await Promise.all(NODES.map((n) => formation.roleOf(n)));
    if (moment.how === 'node') await formation.rejoin(node);
    kills.push({
      moment: moment.name,
      how: moment.how,
      node,
      caught,
      died,
      recoveryMs,
      primaryAfter: roles[NODES.indexOf(primaryAfter)] === 'primary' ? primaryAfter : node,
    });
  }
  await formation.waitForPair(180_000);
  return kills;
}

/**
 * The standby lost, then the primary: no server takes writes, so /readyz and every call that needs
 * the database answer 503 with Retry-After; then both nodes are started again and the service serves
 * without any process restarted.
 */
async function bothNodesDown(
  formation: Formation,
  fleet: Fleet,
  token: (userId: string) => Promise<string>,
): Promise<{ answers: { readyz: number; read: number; retryAfter: boolean }; recoveryMs: number }> {
  const primary = await formation.waitForPair(180_000);
  const standby = NODES.find((n) => n !== primary) as NodeName;
  await formation.kill(standby, 'node');
  await formation.kill(primary, 'node');
  const url = fleet.instances[0]!.url;
  const headers = { authorization: `Bearer ${await token(ids.userA)}` };
  // The first call after the loss may still meet a dead connection of the pool: both answer 503 either way.
  let answers = { readyz: 0, read: 0, retryAfter: false };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const readyz = await rawRequest(`${url}/readyz`, 'GET', {}, undefined, 20_000);
    const read = await rawRequest(`${url}/v1/customers/payroll/requests?limit=1`, 'GET', headers, undefined, 20_000);
    answers = { readyz: readyz.status, read: read.status, retryAfter: Number(read.headers['retry-after']) > 0 };
    if (answers.readyz === 503 && answers.read === 503) break;
    await pause(250);
  }
  const restarted = Date.now();
  await formation.rejoin(primary);
  await formation.rejoin(standby);
  const recoveryMs = (await firstSuccess(fleet, token, restarted + 120_000)) - restarted;
  return { answers, recoveryMs };
}

/** The instant of the first 2xx of a call that reads the database (a customer's list), polled on every API instance. */
async function firstSuccess(fleet: Fleet, token: (userId: string) => Promise<string>, deadline: number): Promise<number> {
  const headers = { authorization: `Bearer ${await token(ids.userA)}` };
  for (let n = 0; Date.now() < deadline; n++) {
    const instance = fleet.instances[n % fleet.instances.length]!;
    const answer = await rawRequest(`${instance.url}/v1/customers/payroll/requests?limit=1`, 'GET', headers, undefined, 5000).catch(() => undefined);
    if (answer && answer.status >= 200 && answer.status < 300) return Date.now();
    await pause(100);
  }
  throw new Error('no 2xx within two minutes of the kill');
}

/**
 * The fleet world's partner bank gets the IBAN and BIC a pain.001 needs as its debtor account (the
 * test world has none: its other tiers pay on the simulated rail).
 */
async function withPartnerBankIban(worldFile: string): Promise<void> {
  const world = JSON.parse(await readFile(worldFile, 'utf8')) as { accounts: Array<Record<string, unknown>> };
  for (const account of world.accounts)
    if (account.accountProvider === 'PAYROLL_PARTNER_BANK') Object.assign(account, { iban: 'AE420260001015333439101', bic: 'EBILAEAD' });
  await writeFile(worldFile, JSON.stringify(world));
}

/**
 * The test's own pool follows the primary as the service's do: its first query after a failover
 * may meet a connection of the lost server (503), after which it finds the new one.
 */
async function untilAnswers(db: PostgresDatabase): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await db.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await pause(250);
    }
  }
}

/** Requests the API answered 201 that the database (the new primary) does not hold. */
async function missingRequests(db: PostgresDatabase, requestIds: string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM payroll_requests WHERE id = ANY($1::uuid[])', [requestIds]);
  const present = new Set(rows.map((row) => row.id));
  return requestIds.filter((id) => !present.has(id));
}

/**
 * One pain.001 per batch: no MsgId in two files of the outbox (or its processed/ archive), and
 * every batch the database records as written has its file there.
 */
async function paymentFileProblems(db: PostgresDatabase, outbox: string): Promise<string[]> {
  const files: string[] = [];
  for (const folder of [outbox, join(outbox, 'processed')]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.xml'))) files.push(await readFile(join(folder, name), 'utf8'));
  }
  const msgIds = files.map((xml) => /<GrpHdr>\s*<MsgId>([^<]+)<\/MsgId>/.exec(xml)?.[1] ?? 'no MsgId');
  const problems = msgIds.filter((id, n) => msgIds.indexOf(id) !== n).map((id) => `MsgId ${id} in two files`);
  const written = await db.query<{ msg_id: string }>('SELECT msg_id FROM bank_file_batches WHERE written_at IS NOT NULL');
  for (const { msg_id } of written) if (!msgIds.includes(msg_id)) problems.push(`batch ${msg_id} recorded as written, no file`);
  if (written.length === 0) problems.push('no payment file was written at all');
  return problems;
}

/** The bank simulator on the test's folders, following the primary through the same URL; started again if it exits. */
class BankSimulator {
  readonly exits: string[] = [];
  private child: ChildProcess | undefined;
  private stopped = false;
  private stderr = '';

  constructor(
    private readonly bank: { BANK_OUTBOX_DIR: string; BANK_INBOX_DIR: string },
    private readonly databaseUrl: string,
  ) {
    this.start();
  }

  private start(): void {
    const args = ['--outbox', this.bank.BANK_OUTBOX_DIR, '--inbox', this.bank.BANK_INBOX_DIR, '--delay-ms', '500', '--poll-ms', '200'];
    this.child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bank-simulator.ts', ...args, '--database-url', this.databaseUrl], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2000)));
    this.child.once('exit', (code, signal) => {
      if (this.stopped) return;
      this.exits.push(`exited ${code ?? signal}: ${this.stderr.slice(-500)}`);
      setTimeout(() => !this.stopped && this.start(), 1000);
    });
  }

  stop(): void {
    this.stopped = true;
    this.child?.kill('SIGTERM');
  }
}

/** The API processes and the worker as in the fleet test, on the ISO 20022 rail, with Redis when one answers. */
async function fleetEnv(
  worldFile: string,
  databaseUrl: string,
  bank: { BANK_OUTBOX_DIR: string; BANK_INBOX_DIR: string },
): Promise<{ api: NodeJS.ProcessEnv; worker: NodeJS.ProcessEnv }> {
  const common = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    WORLD_FILE: worldFile,
    JWT_SECRET,
    FEE_HASH_SECRET: `failover-fee-${randomBytes(16).toString('hex')}`,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'info',
    TEST_FAULT: '',
    BANK_RAIL: 'iso20022',
    BANK_REPORT_SETTLE_MS: '0',
    ...bank,
  };
  const redis = (await redisAnswers(REDIS_URL)) ? { REDIS_URL, REDIS_KEY_PREFIX: `payroll-failover-${randomBytes(4).toString('hex')}:` } : {};
  return {
    api: { ...common, ...redis, HOST: '127.0.0.1', WORKER_IN_PROCESS: 'false', RATE_LIMIT_PER_MINUTE: '1000000', VALIDATE_RESPONSES: 'true' },
    worker: { ...common, WORKER_POLL_MS: '100', WORKER_LEASE_MS: '2000', SIMULATED_SETTLEMENT_MS: '300' },
  };
}

/** Waits (bounded) until the receiver holds every expected event; returns those still missing. */
async function waitForWebhooks(db: PostgresDatabase, endpointId: string, receiver: WebhookReceiver): Promise<string[]> {
  const deadline = Date.now() + WEBHOOKS_MS;
  for (;;) {
    const missing = (await expectedEventIds(db, ids.customerA, endpointId)).filter((id) => !receiver.deliveries.has(id));
    if (missing.length === 0 || Date.now() > deadline) return missing;
    await pause(500);
  }
}

const describeOutcome = (outcome: Outcome): string =>
  `#${outcome.plan.index} ${outcome.plan.variant} (${outcome.plan.failing}/${outcome.plan.entries.length} bouncing) ${outcome.requestId ?? 'no request'}: ` +
  (outcome.error ?? `${outcome.status}, expected ${outcome.plan.expected}`);

const countBy = (values: string[]): Record<string, number> => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
