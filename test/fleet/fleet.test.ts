/**
 * The fleet test (`npm run test:fleet`, a step of .ci/run): the service scaled out as production
 * runs it — 3 API processes and 2 workers on one PostgreSQL database (a fresh one on the machine's
 * server, dropped after) and one Redis (a key prefix of its own), all started at the same instant
 * on the empty database — while 40 payroll lifecycles run at once, spread over the API instances,
 * and API processes and workers are SIGKILLed and started again. Then: every request final as its
 * plan says, every split paid exactly once, the ledger balanced, no 5xx and no connection error but
 * a killed process's own, every Idempotency-Key answering on another instance as it first did,
 * every webhook event delivered. Skipped, saying so, without PostgreSQL or Redis.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { ledgerMismatches } from '../../src/store/ledger/ledger.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { ids } from '../fixtures/world.js';
import { createDatabase, dropDatabase, uniqueDatabaseName, urlOfDatabase } from '../support/globalSetupTemplates.js';
import { killLeftovers } from '../support/processes.js';
import { redisAnswers } from '../support/redis.js';
import { deadlocks, expectedEventIds, paymentProblems, payoutOutcomes, undeliveredCounts } from './checks.js';
import { FleetClient, dataOf, pause } from './client.js';
import { Fleet } from './fleet.js';
import { type Outcome, type Plan, planLifecycles, runLifecycle } from './lifecycles.js';
import { WebhookReceiver } from './receiver.js';
import { writeFleetWorld } from './world.js';

const SERVER_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const APIS = 3;
const WORKERS = 2;
const LIFECYCLES = 40;
const PER_REQUEST = 3;
const KILLS_EACH = 3;
/**
 * The bounds that keep a run under about four minutes whatever the fleet does: every lifecycle
 * final this long after the first started (no call is retried 20 s after it), then the webhooks
 * and the replay of the keys.
 */
const LIFECYCLES_MS = 120_000;
const GRACE_MS = 20_000;
const WEBHOOKS_MS = 30_000;
const REPLAY_MS = 20_000;
const JWT_SECRET = `fleet-jwt-${randomBytes(16).toString('hex')}`;

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const absent = [
  !(await postgresAnswers(SERVER_URL)) && `no PostgreSQL answers at ${new URL(SERVER_URL).host} (set TEST_DATABASE_URL)`,
  !(await redisAnswers(REDIS_URL)) && `no Redis answers at ${new URL(REDIS_URL).host} (set REDIS_URL)`,
].filter(Boolean);
if (absent.length > 0) console.log(`[fleet] skipped: ${absent.join('; ')}`);

describe.skipIf(absent.length > 0)(`fleet: ${APIS} API processes and ${WORKERS} workers, ${LIFECYCLES} lifecycles, SIGKILLs`, () => {
  const databaseName = uniqueDatabaseName('payroll_fleet');
  const databaseUrl = urlOfDatabase(SERVER_URL, databaseName);
  const receiver = new WebhookReceiver();
  let dir = '';
  let fleet: Fleet;
  let db: PostgresDatabase | undefined;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
    dir = await mkdtemp(join(tmpdir(), 'payroll-fleet-'));
    await createDatabase(SERVER_URL, databaseName);
  }, 120_000);

  afterAll(async () => {
    await fleet?.stopAll().catch(() => undefined);
    killLeftovers();
    await db?.close();
    await receiver.close();
    await dropDatabase(SERVER_URL, databaseName).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('every request final, every split paid once, books balanced, no 5xx, keys replayed, webhooks delivered', async () => {
    const started = Date.now();
    const worldFile = join(dir, 'world.json');
    const world = await writeFleetWorld(worldFile, LIFECYCLES, PER_REQUEST);
    const hookUrl = await receiver.start();
    fleet = new Fleet(fleetEnv(worldFile, databaseUrl));
    await fleet.plan(APIS, WORKERS);
    const cold = await coldStart(fleet);
    db = await PostgresDatabase.open(databaseUrl, { maxConnections: 2 });
    const client = new FleetClient(fleet.instances, (userId) =>
      signAccessToken({ secret: JWT_SECRET, jwksUrl: undefined, issuer: undefined, audience: undefined }, userId, 3600),
    );
    const endpoint = await registerWebhook(client, hookUrl);
    receiver.secret = endpoint.secret;

    const plans = planLifecycles(LIFECYCLES, PER_REQUEST, world.beneficiaryIds, (id) => world.failing.has(id));
    const { results, lifecyclesMs } = await runUnderKills(fleet, client, plans);
    const requestIds = results.flatMap((outcome) => (outcome.requestId ? [outcome.requestId] : []));
    const missing = await waitForWebhooks(db, endpoint.id, receiver);
    const replayMismatches = await client.replayKeys(REPLAY_MS);
    await fleet.stopAll();

    await checkInvariants({ fleet, client, receiver, db, results, requestIds, missing, replayMismatches, endpointId: endpoint.id });
    const payouts = await payoutOutcomes(db, requestIds);
    console.log(
      `[fleet] ${LIFECYCLES} lifecycles on ${APIS} APIs + ${WORKERS} workers: ${JSON.stringify(countBy(results.map((o) => o.status ?? 'ERROR')))}; ` +
        `payouts ${JSON.stringify(payouts)}; cold start of ${APIS + WORKERS} processes ${cold.ms} ms (${cold.up} of ${APIS + WORKERS} up at once); ` +
        `lifecycles ${lifecyclesMs} ms; SIGKILLs: ${fleet.kills.api} API, ${fleet.kills.worker} worker (restart to serving ${fleet.restartMs.join('/')} ms); ` +
        `calls ${client.counts.calls}, attempts ${client.counts.attempts} (connection errors of killed processes ${client.counts.killedConnectionErrors}, ` +
        `in-progress key retries ${client.counts.inProgressRetries}, 503s with Retry-After retried ${client.counts.retryAfter503}); keys replayed ${client.keyed.length} (${replayMismatches.length} mismatched); ` +
        `webhook events ${receiver.deliveries.size} (${receiver.duplicates} duplicate deliveries); findings ${client.findings.length}; ` +
        `PostgreSQL deadlocks ${await deadlocks(db)}; total ${Date.now() - started} ms`,
    );
  }, 300_000);
});

/** Every process at once on the empty database (migrations and the world under one lock): all must come up. */
async function coldStart(fleet: Fleet): Promise<{ ms: number; up: number }> {
  const started = Date.now();
  const cold = await fleet.startAll(60_000);
  const outputs = cold.down.map((name) => `${name}:\n${fleet.outputOf(name)}`).join('\n');
  expect.soft(cold.down, `processes that did not come up at the cold start:\n${outputs}`).toEqual([]);
  // Those that failed are started again, so that the rest of the run still says what it can.
  if (cold.down.length > 0) await fleet.restartStopped(60_000);
  return { ms: Date.now() - started, up: cold.up.length };
}

/** Customer A's webhook endpoint for every event type, pointing at the receiver. */
async function registerWebhook(client: FleetClient, url: string): Promise<{ id: string; secret: string }> {
  const eventTypes = ['payroll_request.status_changed', 'transfer.status_changed', 'payout.status_changed'];
  const answer = await client.call('POST', '/v1/customers/webhook-endpoints', ids.userA, { url, eventTypes, description: 'fleet test' }, 'fleet-webhook');
  return dataOf<{ id: string; secret: string }>(answer, 201, 'register the webhook endpoint');
}

/** The lifecycles, started 150 ms apart, and alongside them the kills: an API process, then a worker, every 2.5 s. */
async function runUnderKills(fleet: Fleet, client: FleetClient, plans: Plan[]): Promise<{ results: Outcome[]; lifecyclesMs: number }> {
  const runStarted = Date.now();
  const deadline = runStarted + LIFECYCLES_MS;
  client.giveUpAt = deadline + GRACE_MS;
  const outcomes = Promise.all(plans.map(async (plan) => (await pause(plan.index * 150), runLifecycle(client, plan, deadline))));
  const kills = (async () => {
    for (let round = 0; round < KILLS_EACH && Date.now() < deadline; round++) {
      await pause(2500);
      await fleet.killAndRestart('api', round % APIS, 500);
      await pause(2500);
      await fleet.killAndRestart('worker', round % WORKERS, 500);
    }
  })();
  const [results] = await Promise.all([outcomes, kills]);
  return { results, lifecyclesMs: Date.now() - runStarted };
}

interface RunFacts {
  fleet: Fleet;
  client: FleetClient;
  receiver: WebhookReceiver;
  db: PostgresDatabase;
  results: Outcome[];
  requestIds: string[];
  missing: string[];
  replayMismatches: string[];
  endpointId: string;
}

/** Every invariant, softly: one run reports every failure. */
async function checkInvariants(run: RunFacts): Promise<void> {
  const { fleet, client, receiver, db } = run;
  const wrong = run.results.filter((outcome) => outcome.error || outcome.status !== outcome.plan.expected).map(describeOutcome);
  const context = `kills at ${fleet.killTimes.join(', ')}; the fleet's warnings:\n${fleet.warnings().join('\n')}`;
  expect.soft(fleet.unexpectedExits, 'processes that exited without being killed, or did not serve again after a kill').toEqual([]);
  expect.soft(client.findingSummary(), `5xx answers, connection errors of live instances, calls without an answer; ${context}`).toEqual([]);
  expect.soft(wrong, 'lifecycles that did not end as planned').toEqual([]);
  expect.soft(await paymentProblems(db, run.requestIds), 'splits not paid exactly once').toEqual([]);
  expect.soft(await ledgerMismatches(db), 'ledger: a currency not summing to zero, or a balance other than its postings').toEqual([]);
  expect.soft(run.replayMismatches, 'Idempotency-Keys answering otherwise on another instance').toEqual([]);
  expect.soft(receiver.deliveries.size, 'webhook events received').toBeGreaterThan(0);
  expect.soft(run.missing, 'webhook events never delivered').toEqual([]);
  expect.soft(await undeliveredCounts(db, run.endpointId), 'deliveries not SUCCEEDED').toEqual({});
  expect.soft(receiver.badSignatures, 'deliveries with a bad signature').toBe(0);
  expect.soft(fleet.kills.api, 'API processes killed').toBeGreaterThanOrEqual(KILLS_EACH);
  expect.soft(fleet.kills.worker, 'workers killed').toBeGreaterThanOrEqual(KILLS_EACH);
}

/** The environment of the API processes and the workers: production mode, its own secrets, Redis with a prefix of its own. */
function fleetEnv(worldFile: string, databaseUrl: string): { api: NodeJS.ProcessEnv; worker: NodeJS.ProcessEnv } {
  const common = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    WORLD_FILE: worldFile,
    JWT_SECRET,
    FEE_HASH_SECRET: `fleet-fee-${randomBytes(16).toString('hex')}`,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'info',
    TEST_FAULT: '',
  };
  return {
    api: {
      ...common,
      HOST: '127.0.0.1',
      WORKER_IN_PROCESS: 'false',
      REDIS_URL,
      REDIS_KEY_PREFIX: `payroll-fleet-${randomBytes(4).toString('hex')}:`,
      // One customer and one admin drive all 40 lifecycles: the per-user budget is not what is tested here.
      RATE_LIMIT_PER_MINUTE: '1000000',
      VALIDATE_RESPONSES: 'true',
    },
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
