// Reading the environment through the declaration of every setting (src/config/settings.ts): the
// defaults, the ranges, the messages a refused value gets, and the defaults computed from other settings.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { SETTINGS } from '../../../src/config/settings.js';
import { type Setting, read } from '../../../src/config/values.js';

const FEED = { RATE_SOURCE: 'feed', RATE_FEED_URL: 'https://rates.example/daily.xml' };

describe('the defaults', () => {
  it('apply to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      httpTimeouts: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 },
      nodeEnv: 'development',
      databaseUrl: undefined,
      dataDir: './data',
      embeddedPort: undefined,
      databasePoolSize: 5,
      worldFile: 'worlds/demo.json',
      feeHashTtlSeconds: 900,
      fxRecordToleranceBps: undefined,
      quoteToleranceBps: undefined,
      validateResponses: true,
      bodyLimit: '12mb',
      logLevel: 'info',
      worker: { inProcess: true, pollMs: 250, leaseMs: 30_000, simulatedSettlementMs: 1000 },
      rateLimitPerMinute: 600,
      rateLimitAnonymousPerMinute: 60,
      heavyOperations: { entries: 1000, perCustomer: 2 },
      customerWrites: { concurrent: 2, waitMs: 10_000 },
      webhookAllowLoopback: false,
      webhookAllowedPorts: [443],
      retention: { idempotencyKeyHours: 24, eventDays: 30, expiredEstimateHours: 1, intervalSeconds: 60 },
      testFault: undefined,
      corsOrigins: [],
      trustProxy: false,
      metricsPort: undefined,
      rates: { source: 'world', feed: undefined, maxAgeMs: null, manualMaxAgeMs: null, pegs: [] },
    });
    expect(config.jwt).toMatchObject({ jwksUrl: undefined, issuer: undefined, audience: undefined, clockSkewSeconds: 60, maxLifetimeSeconds: 86_400 });
    expect(config.bank).toEqual({
      rail: 'simulated',
      outboxDir: './data/bank/outbox',
      inboxDir: './data/bank/inbox',
      bookingGraceDays: 3,
      reportMaxBytes: 256 * 2 ** 20,
      reportSettleMs: 2000,
      unansweredAfterSeconds: 43_200,
      sifProfile: 'UAEWPS',
    });
  });

  it('apply to a variable set to the empty string, except where the empty string means something', () => {
    const empty = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, '']));
    const config = loadConfig(empty);
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.webhookAllowedPorts).toEqual([443]);
    // An empty NODE_ENV is neither test nor production; an empty WORLD_FILE loads nothing.
    expect(config.nodeEnv).toBe('');
    expect(config.worldFile).toBeUndefined();
  });

  it('treat a list without an item as unset', () => {
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: ' , ' }).webhookAllowedPorts).toEqual([443]);
    expect(loadConfig({ CORS_ORIGINS: ' a.example , ,b.example' }).corsOrigins).toEqual(['a.example', 'b.example']);
  });
});

describe('the ranges', () => {
  const integers = Object.values(SETTINGS).flatMap((setting: Setting<unknown>) => (setting.kind.type === 'integer' ? [{ setting, ...setting.kind }] : []));

  it.each(integers.map(({ setting, min, max }) => [setting.name, setting, min, max] as const))(
    '%s accepts its bounds and nothing beyond',
    (name, setting, min, max) => {
      expect(read({ [name]: String(min) }, setting)).toBe(min);
      expect(read({ [name]: String(max) }, setting)).toBe(max);
      for (const beyond of [min - 1, max + 1])
        expect(() => read({ [name]: String(beyond) }, setting)).toThrow(`${name} must be an integer between ${min} and ${max}, got "${beyond}"`);
    },
  );

  it('are those the service always had', () => {
    expect(SETTINGS.PORT.kind).toEqual({ type: 'integer', min: 0, max: 65535 });
    expect(SETTINGS.IDEMPOTENCY_KEY_RETENTION_HOURS.kind).toEqual({ type: 'integer', min: 24, max: 24 * 365 });
    expect(SETTINGS.JWT_MAX_LIFETIME_SECONDS.kind).toEqual({ type: 'integer', min: 60, max: 7 * 24 * 3600 });
    expect(SETTINGS.BANK_REPORT_MAX_BYTES.kind).toEqual({ type: 'integer', min: 1024, max: 2 ** 31 - 1 });
  });
});

describe('a refused value', () => {
  it.each([
    [{ PORT: 'http' }, 'PORT must be an integer between 0 and 65535, got "http"'],
    [{ DATABASE_POOL_SIZE: '2.5' }, 'DATABASE_POOL_SIZE must be an integer between 1 and 100, got "2.5"'],
    [{ EMBEDDED_PG_PORT: '0' }, 'EMBEDDED_PG_PORT must be an integer between 1 and 65535, got "0"'],
    [{ RATE_SOURCE: 'file' }, 'RATE_SOURCE must be one of world, feed, got "file"'],
    [{ BANK_RAIL: 'swift' }, 'BANK_RAIL must be one of simulated, iso20022, got "swift"'],
    [{ WORKER_IN_PROCESS: 'yes' }, 'WORKER_IN_PROCESS must be true or false, got "yes"'],
    [{ ...FEED, RATE_MAX_AGE: '0d' }, 'RATE_MAX_AGE must be a duration such as 4d, 36h, 90m or 30s, got "0d"'],
    [{ RATE_MANUAL_MAX_AGE: '2 days' }, 'RATE_MANUAL_MAX_AGE must be a duration such as 4d, 36h, 90m or 30s, got "2 days"'],
    [{ WEBHOOK_ALLOWED_PORTS: '443, 70000, x' }, 'WEBHOOK_ALLOWED_PORTS: 70000 is not a TCP port (1-65535)'],
    [{ RATE_SOURCE: 'feed' }, 'RATE_FEED_URL must be set when RATE_SOURCE=feed'],
  ])('%o stops the start: %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('is read as the service always read it: Number() for an integer, 1 and 0 for a boolean', () => {
    expect(loadConfig({ PORT: ' 8080 ', DATABASE_POOL_SIZE: '1e1', HEAVY_OPERATION_ENTRIES: '0x10' })).toMatchObject({
      port: 8080,
      databasePoolSize: 10,
      heavyOperations: { entries: 16 },
    });
    expect(loadConfig({ WORKER_IN_PROCESS: '0', VALIDATE_RESPONSES: '1' })).toMatchObject({ worker: { inProcess: false }, validateResponses: true });
    expect(loadConfig({ ...FEED, RATE_MAX_AGE: '36h', RATE_MANUAL_MAX_AGE: '90m' }).rates).toMatchObject({
      maxAgeMs: 36 * 3_600_000,
      manualMaxAgeMs: 90 * 60_000,
    });
  });
});

describe('the computed defaults', () => {
  it('LOG_LEVEL, VALIDATE_RESPONSES, the rate limits and WEBHOOK_ALLOW_LOOPBACK follow NODE_ENV', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      logLevel: 'silent',
      validateResponses: true,
      rateLimitPerMinute: 1_000_000,
      rateLimitAnonymousPerMinute: 1_000_000,
      webhookAllowLoopback: true,
    });
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({
      logLevel: 'info',
      validateResponses: false,
      rateLimitPerMinute: 600,
      webhookAllowLoopback: false,
    });
    expect(loadConfig({ NODE_ENV: 'production', VALIDATE_RESPONSES: 'true', LOG_LEVEL: 'debug' })).toMatchObject({
      validateResponses: true,
      logLevel: 'debug',
    });
  });

  it('CUSTOMER_CONCURRENT_WRITES is half of DATABASE_POOL_SIZE, at least 1', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '1' }).customerWrites.concurrent).toBe(1);
    expect(loadConfig({ DATABASE_POOL_SIZE: '9' }).customerWrites.concurrent).toBe(4);
    expect(loadConfig({ DATABASE_POOL_SIZE: '9', CUSTOMER_CONCURRENT_WRITES: '7' }).customerWrites.concurrent).toBe(7);
  });

  it("RATE_MAX_AGE follows the feed's format, and RATE_MANUAL_MAX_AGE follows RATE_MAX_AGE with a feed", () => {
    expect(loadConfig(FEED).rates).toMatchObject({ maxAgeMs: 4 * 86_400_000, manualMaxAgeMs: 4 * 86_400_000 });
    expect(loadConfig({ ...FEED, RATE_FEED_FORMAT: 'json' }).rates).toMatchObject({ maxAgeMs: 86_400_000, manualMaxAgeMs: 86_400_000 });
    expect(loadConfig({ ...FEED, RATE_MAX_AGE: '2d' }).rates.manualMaxAgeMs).toBe(2 * 86_400_000);
    expect(loadConfig({ RATE_MANUAL_MAX_AGE: '1h' }).rates).toMatchObject({ maxAgeMs: null, manualMaxAgeMs: 3_600_000 });
  });

  it("the bank's folders lie under DATA_DIR", () => {
    expect(loadConfig({ DATA_DIR: '/srv/payroll' }).bank).toMatchObject({ outboxDir: '/srv/payroll/bank/outbox', inboxDir: '/srv/payroll/bank/inbox' });
    expect(loadConfig({ DATA_DIR: '/srv/payroll', BANK_INBOX_DIR: '/mnt/bank/in' }).bank.inboxDir).toBe('/mnt/bank/in');
  });

  it("the console's identity provider and resource default to JWT_ISSUER and JWT_AUDIENCE", () => {
    const env = { CONSOLE_OIDC_CLIENT_ID: 'console', JWT_ISSUER: 'https://id.example', JWT_JWKS_URL: 'https://id.example/jwks', JWT_AUDIENCE: 'payroll-api' };
    expect(loadConfig(env).console.oidc).toEqual({ issuer: 'https://id.example', clientId: 'console', scope: 'openid', resource: 'payroll-api' });
    expect(loadConfig({ ...env, JWT_AUDIENCE: '' }).console.oidc?.resource).toBeNull();
  });

  it('say in the docs what they depend on', () => {
    expect(SETTINGS.CUSTOMER_CONCURRENT_WRITES.shownDefault).toContain('`DATABASE_POOL_SIZE`');
    expect(SETTINGS.RATE_MAX_AGE.shownDefault).toBe('`4d` (`ecb-xml`), `1d` (`json`)');
    expect(SETTINGS.BANK_OUTBOX_DIR.shownDefault).toBe('`$DATA_DIR/bank/outbox`');
    expect(SETTINGS.LOG_LEVEL.shownDefault).toBe('`info` (`silent` under `NODE_ENV=test`)');
  });
});

describe('the settings for tests only', () => {
  it('say so in the docs, and TEST_FAULT is read only under NODE_ENV=test', () => {
    const testsOnly = Object.values(SETTINGS).filter((setting) => setting.testsOnly);
    expect(testsOnly.map(({ name }) => name).sort()).toEqual(['TEST_DATABASE_URL', 'TEST_FAULT']);
    for (const { name, doc } of testsOnly) expect(doc, name).toMatch(/^Tests only\b/);
    expect(loadConfig({ NODE_ENV: 'test', TEST_FAULT: 'after-debit' }).testFault).toBe('after-debit');
    expect(loadConfig({ NODE_ENV: 'production', TEST_FAULT: 'after-debit' }).testFault).toBeUndefined();
  });
});

describe('the secrets', () => {
  it('keep their development defaults out of the docs', () => {
    const secrets = Object.values(SETTINGS).filter(({ kind }) => kind.type === 'secret');
    expect(secrets.map(({ name }) => name)).toEqual(['JWT_SECRET', 'FEE_HASH_SECRET']);
    for (const { name, shownDefault, fallback } of secrets) {
      expect(shownDefault, name).toBe('a development secret');
      expect(fallback({}), name).toMatch(/^development-only-/);
    }
  });
});
