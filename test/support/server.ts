import { type PayrollClient, createPayrollClient } from '../../packages/client/src/index.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildApp } from '../../src/composition/app.js';
import type { SharedLimits } from '../../src/http/pipeline/sharedLimits.js';
import type { Database } from '../../src/store/database/db.js';
import { freshDatabase } from './database.js';
import { type Listening, listen } from './http.js';
import { answerClientErrors } from '../../src/http/pipeline/clientErrors.js';

/** A clock tests can move: feeHash expiry without sleeping. */
export class TestClock {
  constructor(private current = new Date('2026-11-23T10:00:00.000Z')) {}
  now = (): Date => new Date(this.current.getTime());
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

export interface TestServer {
  baseUrl: string;
  db: Database;
  clock: TestClock;
  /** The published typed client (client/), unauthenticated. */
  client: PayrollClient;
  /** The published typed client acting as `userId` (a bearer token signed on first use). */
  as(userId: string): PayrollClient;
  token(userId: string, ttlSeconds?: number): Promise<string>;
  close(): Promise<void>;
}

export const TEST_ENV = { NODE_ENV: 'test', VALIDATE_RESPONSES: 'true', FEE_HASH_TTL_SECONDS: '900' };
export const testConfig = loadConfig(TEST_ENV);

/**
 * The test configuration with a quote allowed anywhere up to twice the current rate: for the
 * files that test what happens at rates far from the market (a shortfall at accept, a split
 * rounding to zero), which QUOTE_TOLERANCE_BPS now refuses at the quote.
 */
export const anyQuoteConfig = loadConfig({ ...TEST_ENV, QUOTE_TOLERANCE_BPS: '10000' });

/**
 * The real app on `db` on an ephemeral loopback port, logging nothing unless TEST_LOG says so.
 * Without `now` it runs on the wall clock; `sharedLimits` shares the limits between instances through Redis.
 */
export async function serveApp(config: Config, db: Database, options: { now?: () => Date; sharedLimits?: SharedLimits } = {}): Promise<Listening> {
  const { app } = buildApp(config, db, createLogger(process.env.TEST_LOG ?? 'silent'), options.now, options.sharedLimits);
  const listening = await listen(app);
  answerClientErrors(listening.server);
  return listening;
}

/** The real app on a fresh test database with response validation on: every test is a contract test. */
export async function startTestServer(options: { world?: unknown; config?: Config } = {}): Promise<TestServer> {
  const { db, drop } = await freshDatabase(options.world);
  const clock = new TestClock();
  const listening = await serveApp(options.config ?? testConfig, db, { now: clock.now });
  const baseUrl = listening.url;
  const token = (userId: string, ttlSeconds = 3600) => signAccessToken(testConfig.jwt, userId, ttlSeconds);
  const tokens = new Map<string, string>();
  return {
    baseUrl,
    db,
    clock,
    client: createPayrollClient({ baseUrl }),
    as(userId) {
      return createPayrollClient({
        baseUrl,
        token: async () => {
          if (!tokens.has(userId)) tokens.set(userId, await token(userId));
          return tokens.get(userId)!;
        },
      });
    },
    token,
    async close() {
      await listening.close();
      await drop();
    },
  };
}
