/**
 * Who may call and how much (docs/security.md): the console's sign-in, bearer tokens, the rate
 * limits and the bulkheads, and where webhooks may go.
 */
import { DATABASE_SETTINGS } from './database.js';
import { SERVER_SETTINGS } from './server.js';
import { type Env, boolean, computed, declare, integer, ports, read, secret, text } from '../values.js';

/** The committed secret tokens are signed with where none is set: production refuses to start on it. */
export const DEVELOPMENT_JWT_SECRET = 'development-only-jwt-secret-change-me-0123456789';

const underTests = (env: Env) => read(env, SERVER_SETTINGS.NODE_ENV) === 'test';

export const SECURITY_SETTINGS = declare({
  CONSOLE_DIR: text({
    default: 'dist/console',
    doc: 'Where the browser console is served from (`npm start` builds it there); its development sign-in is on only with the development `JWT_SECRET`, no `JWT_JWKS_URL`, no `DATABASE_URL` and `NODE_ENV` not `production` ([The console](console.md))',
  }),
  CONSOLE_OIDC_CLIENT_ID: text({
    default: undefined,
    doc: "The console's public client at the identity provider: set, the console signs people in with OpenID Connect (authorization code with PKCE); needs `JWT_JWKS_URL` and an issuer ([The console](console.md), OpenID Connect)",
  }),
  CONSOLE_OIDC_ISSUER: text({
    default: computed('`JWT_ISSUER`', (env): string | undefined => read(env, SECURITY_SETTINGS.JWT_ISSUER)),
    doc: 'The identity provider the console sends people to (its `/.well-known/openid-configuration`)',
  }),
  CONSOLE_OIDC_SCOPE: text({ default: 'openid', doc: 'The scopes the console asks for' }),
  CONSOLE_OIDC_RESOURCE: text({
    default: computed('`JWT_AUDIENCE`', (env): string | undefined => read(env, SECURITY_SETTINGS.JWT_AUDIENCE)),
    doc: "The resource indicator (RFC 8707) the console asks for, so that the access token's `aud` is the API",
  }),
  JWT_SECRET: secret({
    default: DEVELOPMENT_JWT_SECRET,
    shown: 'a development secret',
    doc: 'HS256 secret for bearer tokens (embedded default; `npm run token` signs with it)',
  }),
  JWT_JWKS_URL: text({ default: undefined, doc: 'Production: verify tokens against this JWKS instead of `JWT_SECRET`' }),
  JWT_ISSUER: text({ default: undefined, doc: 'Required `iss` claim when set' }),
  JWT_AUDIENCE: text({ default: undefined, doc: 'Required `aud` claim when set' }),
  JWT_CLOCK_SKEW_SECONDS: integer(0, 600, {
    default: 60,
    doc: "How far in the future a token's `iat` or `nbf` may lie (0–600) ([security](security.md#who-may-call-bearer-tokens))",
  }),
  JWT_MAX_LIFETIME_SECONDS: integer(60, 7 * 24 * 3600, {
    default: 24 * 3600,
    doc: 'Longest token validity accepted (60 s – 7 days) ([security](security.md#who-may-call-bearer-tokens))',
  }),
  // Per bearer token; the test suite sends thousands of requests with one token, hence its default.
  RATE_LIMIT_PER_MINUTE: integer(1, 10_000_000, {
    default: computed('`600` (1,000,000 under `NODE_ENV=test`)', (env): number => (underTests(env) ? 1_000_000 : 600)),
    doc: 'Requests a minute per verified user (requests without a valid token: `RATE_LIMIT_ANONYMOUS_PER_MINUTE` per client address, see [security](security.md)); beyond it 429 `RATE_LIMITED`',
  }),
  // Per client address, for requests without a valid token (junk tokens included): a flood of
  // them costs its sender its address's budget. The suite sends thousands such requests, hence its default.
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: integer(1, 10_000_000, {
    default: computed('`60` (1,000,000 under `NODE_ENV=test`)', (env): number => (underTests(env) ? 1_000_000 : 60)),
    doc: 'Requests a minute per client address without a valid token ([security](security.md#limits-before-work))',
  }),
  REDIS_URL: text({
    default: undefined,
    doc: 'Keep the rate-limit budgets and the heavy-operation slots in Redis, shared by every instance (e.g. `redis://127.0.0.1:6379`). Redis is optional: while it is unreachable (at start or later) each instance limits in its own memory, logs it once and reports `redis: degraded` in `/readyz` (still 200), and it goes back to Redis when it returns',
  }),
  REDIS_KEY_PREFIX: text({ default: 'payroll:', doc: 'Prefix of every Redis key, so that two deployments can share one Redis' }),
  HEAVY_OPERATION_ENTRIES: integer(1, 100_000, {
    default: 1000,
    doc: 'An estimate or creation of more entries than this (or a CSV file over 64 bytes per entry) is heavy (see [security](security.md)). A body whose declared `Content-Length` exceeds 256 bytes per such entry counts before it is read, parsed or validated, whatever it contains',
  }),
  HEAVY_OPERATIONS_PER_CUSTOMER: integer(1, 1000, {
    default: 2,
    doc: 'How many heavy operations a customer runs at once (shared through Redis when `REDIS_URL` is set); the next answers 429 (see [security](security.md))',
  }),
  // At most half the request pool (at least one connection) for one customer's state-changing
  // operations, so that a customer whose account is locked leaves the other half to everyone else.
  CUSTOMER_CONCURRENT_WRITES: integer(1, 100, {
    default: computed('half of `DATABASE_POOL_SIZE` (at least 1)', (env): number =>
      Math.max(1, Math.floor(read(env, DATABASE_SETTINGS.DATABASE_POOL_SIZE) / 2)),
    ),
    doc: "How many of one customer's state-changing operations (those that take an `Idempotency-Key`) run at once in an instance, each holding a pool connection while it may wait on that customer's account lock; the rest wait without one, so a customer whose account is locked never holds more than this share of the pool and other customers' requests stay fast (`npm run bench -- --only bulkhead` measures another customer's GET while one customer's account is locked: [performance](performance.md#the-benchmark))",
  }),
  CUSTOMER_WRITE_WAIT_MS: integer(100, 600_000, {
    default: 10_000,
    doc: 'How long such an operation waits for its turn before answering 503 `SERVICE_UNAVAILABLE` with `Retry-After` (nothing done)',
  }),
  // Webhook endpoints on loopback over plain http: development and tests only.
  WEBHOOK_ALLOW_LOOPBACK: boolean({
    default: computed('`false` (`true` under `NODE_ENV=test`)', underTests),
    doc: 'Accept webhook endpoints on loopback over plain http (development only)',
  }),
  WEBHOOK_ALLOWED_PORTS: ports({
    default: [443],
    doc: 'Comma-separated ports a webhook endpoint URL may name (the ports HTTPS endpoints use); any other is refused at registration',
  }),
});
