/**
 * The process and its HTTP server: where it listens, what it checks and logs, what it reports
 * (src/config/settings.ts gathers every group).
 */
import { boolean, computed, declare, integer, list, read, text } from '../values.js';

export const SERVER_SETTINGS = declare({
  PORT: integer(0, 65535, { default: 3000, doc: 'HTTP port' }),
  HOST: text({ default: '127.0.0.1', doc: "Address the server listens on; set `0.0.0.0` (or an interface's address) to serve other machines" }),
  HTTP_HEADERS_TIMEOUT_MS: integer(1000, 600_000, {
    default: 10_000,
    doc: 'A client must send all its headers within this; otherwise 408 and the connection closed',
  }),
  HTTP_REQUEST_TIMEOUT_MS: integer(1000, 3_600_000, { default: 30_000, doc: 'A client must send its whole request (headers and body) within this' }),
  // Set but empty, NODE_ENV is neither test nor production: the empty string is its value.
  NODE_ENV: text({ default: 'development', empty: 'kept', doc: '`production` turns response validation off by default' }),
  // Response validation is the contract's safety net: on by default, off by default in production
  // where its cost grows with response size (VALIDATE_RESPONSES=true turns it back on).
  VALIDATE_RESPONSES: boolean({
    default: computed('`true` (`false` in production)', (env): boolean => read(env, SERVER_SETTINGS.NODE_ENV) !== 'production'),
    doc: 'Validate every response against the spec; a mismatch becomes a 500 and a log line',
  }),
  BODY_LIMIT: text({
    default: '12mb',
    doc: 'Largest JSON body or payroll CSV file (a 100,000-line payroll is about 10 MB as JSON, 4 MB as CSV); a payroll holds at most 100,000 lines',
  }),
  LOG_LEVEL: text({
    default: computed('`info` (`silent` under `NODE_ENV=test`)', (env): string => (read(env, SERVER_SETTINGS.NODE_ENV) === 'test' ? 'silent' : 'info')),
    doc: 'pino level',
  }),
  HEAP_GROWING_PERCENT: integer(0, 300, {
    default: 100,
    doc: "How far V8's heap may grow above what survived the last full collection before the next (0–300; `0` = V8's own choice, up to 300% when busy); not a heap limit",
  }),
  // The one cached form (docs/performance.md#the-one-cached-form): repeat reads of a request whose items have not changed.
  READ_CACHE_MB: integer(0, 4096, {
    default: 64,
    doc: "Memory each API process keeps for repeat reads of payroll requests: a request's splits and transfers as the answer writes them, reused while none of them has changed; `0` turns it off ([performance](performance.md#the-one-cached-form))",
  }),
  CORS_ORIGINS: list({ doc: 'Comma-separated browser origins allowed cross-origin access; CORS is off when empty' }),
  // Read as Express's 'trust proxy' (src/config/config.ts): `false` and unset alike leave it off.
  TRUST_PROXY: text({ default: 'false', doc: 'Express `trust proxy` behind a TLS-terminating proxy: `true`, a hop count, or addresses such as `loopback`' }),
  METRICS_PORT: integer(0, 65535, {
    default: undefined,
    doc: 'Serve `GET /metrics` (Prometheus) on this port of `HOST`, in the API and in the worker; off when unset (see [Metrics and traces](#metrics-and-traces))',
  }),
  // Read before anything else is loaded, so that tracing can hook pg before it is imported.
  OTEL_EXPORTER_OTLP_ENDPOINT: text({
    default: undefined,
    readIn: 'src/observability/preload.ts',
    doc: 'Export OpenTelemetry traces over OTLP/HTTP to this collector (with `npm start` / `npm run worker`, which preload the tracing); the other standard `OTEL_*` variables are honoured; off when unset',
  }),
});
