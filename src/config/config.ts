/**
 * Every setting the service reads from its environment, parsed once at start-up.
 * The configuration table of docs/operations.md mirrors this file.
 */
import { ConfigError, boolean, duration, integer, list, oneOf, ports } from './values.js';
import { type BankConfig, bankConfig } from './bank.js';
import { type ConsoleConfig, consoleConfig } from './console.js';

export { ConfigError };

const DEVELOPMENT_JWT_SECRET = 'development-only-jwt-secret-change-me-0123456789';
const DEVELOPMENT_FEE_HASH_SECRET = 'development-only-fee-hash-secret-change-me-012345';

export interface Config {
  port: number;
  /** The address the server listens on: loopback unless HOST says otherwise (0.0.0.0 for every interface). */
  host: string;
  /** Node's bounds on a slow client: all headers within headersTimeoutMs, the whole request within requestTimeoutMs. */
  httpTimeouts: { headersTimeoutMs: number; requestTimeoutMs: number };
  nodeEnv: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** The embedded PostgreSQL's port (EMBEDDED_PG_PORT); a free port at each start when unset. */
  embeddedPort: number | undefined;
  /** Connections in the server's pool for requests (the worker has its own two). */
  databasePoolSize: number;
  /** Bounds of every database session: a lost or stuck database answers 503, never a hang. */
  databaseSession: DatabaseSessionLimits;
  worldFile: string | undefined;
  /** The browser console (docs/console.md): its built files (CONSOLE_DIR), and whether its development sign-in is on. */
  console: ConsoleConfig;
  jwt: {
    secret: string;
    jwksUrl: string | undefined;
    issuer: string | undefined;
    audience: string | undefined;
    /** How far in the future `iat` and `nbf` may lie (the clocks' disagreement tolerated), seconds. */
    clockSkewSeconds: number;
    /** The longest validity accepted: exp − iat (exp − now without iat), seconds. */
    maxLifetimeSeconds: number;
  };
  feeHashSecret: string;
  feeHashTtlSeconds: number;
  /** How far (in BIPS of the accepted quote) a recorded FX rate may lie from it; unset: the domain's default (500). */
  fxRecordToleranceBps: number | undefined;
  /** How far (in BIPS of the current rate for the pair) an admin's quote may lie from it; unset: the domain's default (1000). */
  quoteToleranceBps: number | undefined;
  validateResponses: boolean;
  bodyLimit: string;
  logLevel: string;
  worker: { inProcess: boolean; pollMs: number; leaseMs: number; simulatedSettlementMs: number };
  /** The partner bank (docs/bank-files.md): src/config/bank.ts. */
  bank: BankConfig;
  rateLimitPerMinute: number;
  /** Requests a minute per client address for requests without a valid token. */
  rateLimitAnonymousPerMinute: number;
  /** Estimates and creations above `entries` entries are heavy: at most `perCustomer` at once per customer. */
  heavyOperations: { entries: number; perCustomer: number };
  /** The per-customer bulkhead on operations that change a customer's rows (src/http/customerBulkhead.ts). */
  customerWrites: { concurrent: number; waitMs: number };
  /** V8's heap growing factor as a percentage above the live heap after a full GC; 0: V8's own choice (src/composition/heap.ts). */
  heapGrowingPercent: number;
  webhookAllowLoopback: boolean;
  /** The ports a webhook endpoint URL may name (WEBHOOK_ALLOWED_PORTS): those HTTPS endpoints use. */
  webhookAllowedPorts: number[];
  /** What the worker deletes, and when (docs/security.md: every window). */
  retention: { idempotencyKeyHours: number; eventDays: number; expiredEstimateHours: number; intervalSeconds: number };
  /** Tests only (read only under NODE_ENV=test): a fault point of src/usecases/faults.ts where the process kills itself. */
  testFault: string | undefined;
  redisUrl: string | undefined;
  /** Prepended to every Redis key, so that two deployments may share one Redis. */
  redisKeyPrefix: string;
  corsOrigins: string[];
  trustProxy: string | number | boolean;
  /** Where `GET /metrics` (Prometheus) is served, on a port of its own; unset: no metrics at all. */
  metricsPort: number | undefined;
  rates: RateConfig;
}

/** 1 `anchor` buys `rate` of `currency` (1 USD = 3.6725 AED), whatever the feed says of `currency`. */
export interface CurrencyPeg {
  anchor: string;
  currency: string;
  rate: string;
}

/** Where rates come from (docs/operations.md, exchange rates). Ages in milliseconds; null: no bound. */
export interface RateConfig {
  source: 'world' | 'feed';
  /** RATE_SOURCE=feed only: the feed, its format, how often the worker polls it and the jump it refuses. */
  feed: { url: string; format: 'ecb-xml' | 'json'; pollIntervalSeconds: number; maxJumpBps: number } | undefined;
  maxAgeMs: number | null;
  manualMaxAgeMs: number | null;
  pegs: CurrencyPeg[];
}

/** Milliseconds; each is a setting (docs/operations.md, configuration). */
export interface DatabaseSessionLimits {
  /** Connecting to the server (TCP and start-up): past it, the database counts as unreachable. */
  connectTimeoutMs: number;
  /** Waiting for a free connection of the pool while every one is busy. */
  poolWaitMs: number;
  /** One statement on the server (statement_timeout); the client gives up a second later. */
  statementTimeoutMs: number;
  /** Waiting for a row or table lock (lock_timeout). */
  lockTimeoutMs: number;
  /** A transaction left open by a client that went away (idle_in_transaction_session_timeout). */
  idleInTransactionTimeoutMs: number;
  /** TCP keepalive idle time on both ends, so a dead peer's session and locks go within seconds. */
  keepAliveMs: number;
  /** Memory one sort, hash or trigger's row store may take before it spills to disk (work_mem), in MB. */
  workMemMb: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    httpTimeouts: httpTimeouts(env),
    nodeEnv,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || './data',
    embeddedPort: env.EMBEDDED_PG_PORT ? integer(env, 'EMBEDDED_PG_PORT', 0, 1, 65535) : undefined,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 5, 1, 100),
    databaseSession: databaseSessionLimits(env),
    worldFile: env.WORLD_FILE === '' ? undefined : (env.WORLD_FILE ?? 'worlds/demo.json'),
    jwt: jwtConfig(env),
    console: consoleConfig(env, nodeEnv, DEVELOPMENT_JWT_SECRET),
    feeHashSecret: env.FEE_HASH_SECRET || DEVELOPMENT_FEE_HASH_SECRET,
    feeHashTtlSeconds: integer(env, 'FEE_HASH_TTL_SECONDS', 900, 60, 3600),
    fxRecordToleranceBps: env.FX_RECORD_TOLERANCE_BPS ? integer(env, 'FX_RECORD_TOLERANCE_BPS', 0, 0, 10_000) : undefined,
    quoteToleranceBps: env.QUOTE_TOLERANCE_BPS ? integer(env, 'QUOTE_TOLERANCE_BPS', 0, 0, 10_000) : undefined,
    // Response validation is the contract's safety net: on by default, off by default in production
    // where its cost grows with response size (VALIDATE_RESPONSES=true turns it back on).
    validateResponses: boolean(env, 'VALIDATE_RESPONSES', nodeEnv !== 'production'),
    bodyLimit: env.BODY_LIMIT || '12mb',
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    worker: {
      inProcess: boolean(env, 'WORKER_IN_PROCESS', true),
      pollMs: integer(env, 'WORKER_POLL_MS', 250, 10, 60_000),
      leaseMs: integer(env, 'WORKER_LEASE_MS', 30_000, 1000, 600_000),
      simulatedSettlementMs: integer(env, 'SIMULATED_SETTLEMENT_MS', 1000, 0, 600_000),
    },
    bank: bankConfig(env),
    // Per bearer token; the test suite sends thousands of requests with one token, hence its default.
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', nodeEnv === 'test' ? 1_000_000 : 600, 1, 10_000_000),
    // Per client address, for requests without a valid token (junk tokens included): a flood of
    // them costs its sender its address's budget. The suite sends thousands such requests, hence its default.
    rateLimitAnonymousPerMinute: integer(env, 'RATE_LIMIT_ANONYMOUS_PER_MINUTE', nodeEnv === 'test' ? 1_000_000 : 60, 1, 10_000_000),
    heavyOperations: {
      entries: integer(env, 'HEAVY_OPERATION_ENTRIES', 1000, 1, 100_000),
      perCustomer: integer(env, 'HEAVY_OPERATIONS_PER_CUSTOMER', 2, 1, 1000),
    },
    customerWrites: customerWrites(env),
    heapGrowingPercent: integer(env, 'HEAP_GROWING_PERCENT', 100, 0, 300),
    // Webhook endpoints on loopback over plain http: development and tests only.
    webhookAllowLoopback: boolean(env, 'WEBHOOK_ALLOW_LOOPBACK', nodeEnv === 'test'),
    webhookAllowedPorts: ports(env, 'WEBHOOK_ALLOWED_PORTS', [443]),
    retention: retentionWindows(env),
    testFault: nodeEnv === 'test' ? env.TEST_FAULT || undefined : undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'payroll:',
    corsOrigins: list(env.CORS_ORIGINS),
    trustProxy: trustProxy(env.TRUST_PROXY),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
    rates: rateConfig(env),
  };
}

function jwtConfig(env: NodeJS.ProcessEnv): Config['jwt'] {
  return {
    secret: env.JWT_SECRET || DEVELOPMENT_JWT_SECRET,
    jwksUrl: env.JWT_JWKS_URL || undefined,
    issuer: env.JWT_ISSUER || undefined,
    audience: env.JWT_AUDIENCE || undefined,
    clockSkewSeconds: integer(env, 'JWT_CLOCK_SKEW_SECONDS', 60, 0, 600),
    maxLifetimeSeconds: integer(env, 'JWT_MAX_LIFETIME_SECONDS', 24 * 3600, 60, 7 * 24 * 3600),
  };
}

/**
 * RATE_MAX_AGE defaults to 4d for the ECB (Friday's rates must last past a weekend and a one-day
 * holiday) and to 1d for a JSON feed, which publishes every day. World rates never age; a manual
 * rate ages by RATE_MANUAL_MAX_AGE, by default RATE_MAX_AGE with a feed and no bound without.
 */
function rateConfig(env: NodeJS.ProcessEnv): RateConfig {
  const source = oneOf(env, 'RATE_SOURCE', ['world', 'feed'] as const, 'world');
  const format = oneOf(env, 'RATE_FEED_FORMAT', ['ecb-xml', 'json'] as const, 'ecb-xml');
  if (source === 'feed' && !env.RATE_FEED_URL) throw new ConfigError('RATE_FEED_URL must be set when RATE_SOURCE=feed');
  const feed =
    source === 'feed'
      ? {
          url: env.RATE_FEED_URL ?? '',
          format,
          pollIntervalSeconds: integer(env, 'RATE_POLL_INTERVAL_S', 900, 1, 86_400),
          maxJumpBps: integer(env, 'RATE_MAX_JUMP_BPS', 1000, 1, 1_000_000),
        }
      : undefined;
  const maxAgeMs = source === 'feed' ? duration(env, 'RATE_MAX_AGE', format === 'ecb-xml' ? '4d' : '1d') : null;
  return { source, feed, maxAgeMs, manualMaxAgeMs: env.RATE_MANUAL_MAX_AGE ? duration(env, 'RATE_MANUAL_MAX_AGE', '') : maxAgeMs, pegs: pegs(env) };
}

/** RATE_PEGS: "USD/AED=3.6725,USD/SAR=3.75" (1 USD = 3.6725 AED); the rate stays a decimal string. */
function pegs(env: NodeJS.ProcessEnv): CurrencyPeg[] {
  return list(env.RATE_PEGS).map((item) => {
    const match = /^([A-Z0-9]{3,5})\/([A-Z0-9]{3,5})=(\d{1,9}(?:\.\d{1,12})?)$/.exec(item);
    if (!match || !/[1-9]/.test(match[3]!)) throw new ConfigError(`RATE_PEGS items must read ANCHOR/CURRENCY=RATE (USD/AED=3.6725), got "${item}"`);
    return { anchor: match[1]!, currency: match[2]!, rate: match[3]! };
  });
}

function httpTimeouts(env: NodeJS.ProcessEnv): Config['httpTimeouts'] {
  return {
    headersTimeoutMs: integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000),
    requestTimeoutMs: integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000),
  };
}

function retentionWindows(env: NodeJS.ProcessEnv): Config['retention'] {
  return {
    // The spec promises a stored answer for 24 hours: never less.
    idempotencyKeyHours: integer(env, 'IDEMPOTENCY_KEY_RETENTION_HOURS', 24, 24, 24 * 365),
    eventDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    expiredEstimateHours: integer(env, 'EXPIRED_ESTIMATE_RETENTION_HOURS', 1, 0, 24 * 365),
    intervalSeconds: integer(env, 'RETENTION_INTERVAL_SECONDS', 60, 1, 86_400),
  };
}

function databaseSessionLimits(env: NodeJS.ProcessEnv): DatabaseSessionLimits {
  return {
    connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    poolWaitMs: integer(env, 'DATABASE_POOL_WAIT_MS', 30_000, 100, 600_000),
    statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
    lockTimeoutMs: integer(env, 'DATABASE_LOCK_TIMEOUT_MS', 10_000, 100, 3_600_000),
    idleInTransactionTimeoutMs: integer(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    keepAliveMs: integer(env, 'DATABASE_KEEPALIVE_MS', 10_000, 1000, 600_000),
    workMemMb: integer(env, 'DATABASE_WORK_MEM_MB', 128, 1, 2048),
  };
}

/** Express's 'trust proxy': off by default; a hop count, true, or a list such as "loopback, 10.0.0.0/8". */
function trustProxy(raw: string | undefined): string | number | boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/**
 * Production must not run on development defaults: the committed JWT and fee-hash secrets would
 * let anyone mint tokens and feeHashes, and the demo world would serve demo money.
 */
export function productionProblems(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  if (config.nodeEnv !== 'production') return [];
  const problems: string[] = [];
  if (!config.jwt.jwksUrl && config.jwt.secret === DEVELOPMENT_JWT_SECRET)
    problems.push('JWT_SECRET is the development secret (set JWT_SECRET or JWT_JWKS_URL)');
  if (config.feeHashSecret === DEVELOPMENT_FEE_HASH_SECRET) problems.push('FEE_HASH_SECRET is the development secret');
  if (env.WORLD_FILE === undefined || config.worldFile === 'worlds/demo.json')
    problems.push('WORLD_FILE is the demo world (set WORLD_FILE to your reference data, or to an empty string)');
  return problems;
}

/**
 * At most half the request pool (at least one connection) for one customer's state-changing
 * operations, so that a customer whose account is locked leaves the other half to everyone else.
 */
function customerWrites(env: NodeJS.ProcessEnv): Config['customerWrites'] {
  const poolSize = integer(env, 'DATABASE_POOL_SIZE', 5, 1, 100);
  return {
    concurrent: integer(env, 'CUSTOMER_CONCURRENT_WRITES', Math.max(1, Math.floor(poolSize / 2)), 1, 100),
    waitMs: integer(env, 'CUSTOMER_WRITE_WAIT_MS', 10_000, 100, 600_000),
  };
}
