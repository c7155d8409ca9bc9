/**
 * Every setting the service reads from its environment, parsed once at start-up: each value is read
 * through its declaration (src/config/settings.ts: kind, range, default), so none is written here.
 */
import { ConfigError, read } from './values.js';
import { DEMO_WORLD_FILE, DEVELOPMENT_FEE_HASH_SECRET, DEVELOPMENT_JWT_SECRET, SETTINGS } from './settings.js';
import { type BankConfig, bankConfig } from './bank.js';
import { type ConsoleConfig, consoleConfig } from './console.js';
import { type PayCalendarConfig, payCalendarConfig } from './payCalendar.js';
import { type ScreeningConfig, screeningConfig } from './screening.js';

export { ConfigError };

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
  /** A pay date's lead times in the partner bank's business days, and when its deadlines are announced (src/config/settings/calendar.ts). */
  payCalendar: PayCalendarConfig;
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
  /** The per-customer bulkhead on operations that change a customer's rows (src/http/pipeline/customerBulkhead.ts). */
  customerWrites: { concurrent: number; waitMs: number };
  /** V8's heap growing factor as a percentage above the live heap after a full GC; 0: V8's own choice (src/composition/heap.ts). */
  heapGrowingPercent: number;
  /** Bytes each API process keeps of requests' items as JSON text for repeat reads (READ_CACHE_MB); 0: none. */
  readCacheBytes: number;
  webhookAllowLoopback: boolean;
  /** The ports a webhook endpoint URL may name (WEBHOOK_ALLOWED_PORTS): those HTTPS endpoints use. */
  webhookAllowedPorts: number[];
  /** What the worker deletes, and when (docs/security.md: every window). */
  retention: { idempotencyKeyHours: number; eventDays: number; expiredEstimateHours: number; intervalSeconds: number };
  /** Tests only (read only under NODE_ENV=test): a fault point of src/usecases/operations/faults.ts where the process kills itself. */
  testFault: string | undefined;
  redisUrl: string | undefined;
  /** Prepended to every Redis key, so that two deployments may share one Redis. */
  redisKeyPrefix: string;
  corsOrigins: string[];
  trustProxy: string | number | boolean;
  /** Where `GET /metrics` (Prometheus) is served, on a port of its own; unset: no metrics at all. */
  metricsPort: number | undefined;
  rates: RateConfig;
  /**
   * Sanctions screening: the folder of list files (the shipped extract's with SANCTIONS_SHIPPED_EXTRACT),
   * undefined when the service screens nothing; the threshold as a fraction.
   */
  screening: ScreeningConfig;
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
  feed: { url: string; format: 'ecb-xml' | 'json'; pollIntervalSeconds: number; maxJumpBps: number; maxWindowBps: number } | undefined;
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
  const nodeEnv = read(env, SETTINGS.NODE_ENV);
  return {
    port: read(env, SETTINGS.PORT),
    host: read(env, SETTINGS.HOST),
    httpTimeouts: httpTimeouts(env),
    nodeEnv,
    databaseUrl: read(env, SETTINGS.DATABASE_URL),
    dataDir: read(env, SETTINGS.DATA_DIR),
    embeddedPort: read(env, SETTINGS.EMBEDDED_PG_PORT),
    databasePoolSize: read(env, SETTINGS.DATABASE_POOL_SIZE),
    databaseSession: databaseSessionLimits(env),
    worldFile: read(env, SETTINGS.WORLD_FILE),
    jwt: jwtConfig(env),
    console: consoleConfig(env, nodeEnv),
    feeHashSecret: read(env, SETTINGS.FEE_HASH_SECRET),
    feeHashTtlSeconds: read(env, SETTINGS.FEE_HASH_TTL_SECONDS),
    fxRecordToleranceBps: read(env, SETTINGS.FX_RECORD_TOLERANCE_BPS),
    quoteToleranceBps: read(env, SETTINGS.QUOTE_TOLERANCE_BPS),
    payCalendar: payCalendarConfig(env),
    validateResponses: read(env, SETTINGS.VALIDATE_RESPONSES),
    bodyLimit: read(env, SETTINGS.BODY_LIMIT),
    logLevel: read(env, SETTINGS.LOG_LEVEL),
    worker: {
      inProcess: read(env, SETTINGS.WORKER_IN_PROCESS),
      pollMs: read(env, SETTINGS.WORKER_POLL_MS),
      leaseMs: read(env, SETTINGS.WORKER_LEASE_MS),
      simulatedSettlementMs: read(env, SETTINGS.SIMULATED_SETTLEMENT_MS),
    },
    bank: bankConfig(env),
    rateLimitPerMinute: read(env, SETTINGS.RATE_LIMIT_PER_MINUTE),
    rateLimitAnonymousPerMinute: read(env, SETTINGS.RATE_LIMIT_ANONYMOUS_PER_MINUTE),
    heavyOperations: {
      entries: read(env, SETTINGS.HEAVY_OPERATION_ENTRIES),
      perCustomer: read(env, SETTINGS.HEAVY_OPERATIONS_PER_CUSTOMER),
    },
    customerWrites: customerWrites(env),
    heapGrowingPercent: read(env, SETTINGS.HEAP_GROWING_PERCENT),
    readCacheBytes: read(env, SETTINGS.READ_CACHE_MB) * 2 ** 20,
    webhookAllowLoopback: read(env, SETTINGS.WEBHOOK_ALLOW_LOOPBACK),
    webhookAllowedPorts: read(env, SETTINGS.WEBHOOK_ALLOWED_PORTS),
    retention: retentionWindows(env),
    testFault: nodeEnv === 'test' ? read(env, SETTINGS.TEST_FAULT) : undefined,
    redisUrl: read(env, SETTINGS.REDIS_URL),
    redisKeyPrefix: read(env, SETTINGS.REDIS_KEY_PREFIX),
    corsOrigins: read(env, SETTINGS.CORS_ORIGINS),
    trustProxy: trustProxy(read(env, SETTINGS.TRUST_PROXY)),
    metricsPort: read(env, SETTINGS.METRICS_PORT),
    rates: rateConfig(env),
    screening: screeningConfig(env),
  };
}

function jwtConfig(env: NodeJS.ProcessEnv): Config['jwt'] {
  return {
    secret: read(env, SETTINGS.JWT_SECRET),
    jwksUrl: read(env, SETTINGS.JWT_JWKS_URL),
    issuer: read(env, SETTINGS.JWT_ISSUER),
    audience: read(env, SETTINGS.JWT_AUDIENCE),
    clockSkewSeconds: read(env, SETTINGS.JWT_CLOCK_SKEW_SECONDS),
    maxLifetimeSeconds: read(env, SETTINGS.JWT_MAX_LIFETIME_SECONDS),
  };
}

/** World rates never age; with a feed, rates age by RATE_MAX_AGE and a manual rate by RATE_MANUAL_MAX_AGE. */
function rateConfig(env: NodeJS.ProcessEnv): RateConfig {
  const source = read(env, SETTINGS.RATE_SOURCE);
  const format = read(env, SETTINGS.RATE_FEED_FORMAT);
  const url = read(env, SETTINGS.RATE_FEED_URL);
  if (source === 'feed' && !url) throw new ConfigError('RATE_FEED_URL must be set when RATE_SOURCE=feed');
  const feed =
    source === 'feed'
      ? {
          url: url ?? '',
          format,
          pollIntervalSeconds: read(env, SETTINGS.RATE_POLL_INTERVAL_S),
          maxJumpBps: read(env, SETTINGS.RATE_MAX_JUMP_BPS),
          maxWindowBps: read(env, SETTINGS.RATE_MAX_WINDOW_BPS),
        }
      : undefined;
  const maxAgeMs = source === 'feed' ? read(env, SETTINGS.RATE_MAX_AGE) : null;
  return { source, feed, maxAgeMs, manualMaxAgeMs: read(env, SETTINGS.RATE_MANUAL_MAX_AGE), pegs: pegs(env) };
}

/** RATE_PEGS: "USD/AED=3.6725,USD/SAR=3.75" (1 USD = 3.6725 AED); the rate stays a decimal string. */
function pegs(env: NodeJS.ProcessEnv): CurrencyPeg[] {
  return read(env, SETTINGS.RATE_PEGS).map((item) => {
    const match = /^([A-Z0-9]{3,5})\/([A-Z0-9]{3,5})=(\d{1,9}(?:\.\d{1,12})?)$/.exec(item);
    if (!match || !/[1-9]/.test(match[3]!)) throw new ConfigError(`RATE_PEGS items must read ANCHOR/CURRENCY=RATE (USD/AED=3.6725), got "${item}"`);
    return { anchor: match[1]!, currency: match[2]!, rate: match[3]! };
  });
}

function httpTimeouts(env: NodeJS.ProcessEnv): Config['httpTimeouts'] {
  return {
    headersTimeoutMs: read(env, SETTINGS.HTTP_HEADERS_TIMEOUT_MS),
    requestTimeoutMs: read(env, SETTINGS.HTTP_REQUEST_TIMEOUT_MS),
  };
}

function retentionWindows(env: NodeJS.ProcessEnv): Config['retention'] {
  return {
    idempotencyKeyHours: read(env, SETTINGS.IDEMPOTENCY_KEY_RETENTION_HOURS),
    eventDays: read(env, SETTINGS.EVENT_RETENTION_DAYS),
    expiredEstimateHours: read(env, SETTINGS.EXPIRED_ESTIMATE_RETENTION_HOURS),
    intervalSeconds: read(env, SETTINGS.RETENTION_INTERVAL_SECONDS),
  };
}

function databaseSessionLimits(env: NodeJS.ProcessEnv): DatabaseSessionLimits {
  return {
    connectTimeoutMs: read(env, SETTINGS.DATABASE_CONNECT_TIMEOUT_MS),
    poolWaitMs: read(env, SETTINGS.DATABASE_POOL_WAIT_MS),
    statementTimeoutMs: read(env, SETTINGS.DATABASE_STATEMENT_TIMEOUT_MS),
    lockTimeoutMs: read(env, SETTINGS.DATABASE_LOCK_TIMEOUT_MS),
    idleInTransactionTimeoutMs: read(env, SETTINGS.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS),
    keepAliveMs: read(env, SETTINGS.DATABASE_KEEPALIVE_MS),
    workMemMb: read(env, SETTINGS.DATABASE_WORK_MEM_MB),
  };
}

/** Express's 'trust proxy': off by default; a hop count, true, or a list such as "loopback, 10.0.0.0/8". */
function trustProxy(raw: string): string | number | boolean {
  if (raw === 'false') return false;
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
  if (env.WORLD_FILE === undefined || config.worldFile === DEMO_WORLD_FILE)
    problems.push('WORLD_FILE is the demo world (set WORLD_FILE to your reference data, or to an empty string)');
  return problems;
}

/** The per-customer bulkhead: its default share of the pool is CUSTOMER_CONCURRENT_WRITES's declaration. */
function customerWrites(env: NodeJS.ProcessEnv): Config['customerWrites'] {
  return {
    concurrent: read(env, SETTINGS.CUSTOMER_CONCURRENT_WRITES),
    waitMs: read(env, SETTINGS.CUSTOMER_WRITE_WAIT_MS),
  };
}
