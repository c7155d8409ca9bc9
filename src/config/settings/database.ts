/** The database: which server, its embedded default's files, the world loaded into it, and every session's bounds. */
import { declare, integer, text } from '../values.js';

/** The demo world: production refuses to start on it (src/config/config.ts, productionProblems). */
export const DEMO_WORLD_FILE = 'worlds/demo.json';

export const DATABASE_SETTINGS = declare({
  DATABASE_URL: text({
    default: undefined,
    doc: 'PostgreSQL connection string; when set, the embedded database is not used. Several hosts as libpq writes them (`postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write`) make the pool follow the primary across a failover ([Failover](#failover))',
  }),
  DATA_DIR: text({
    default: './data',
    doc: "The embedded PostgreSQL's directory (cluster in `DATA_DIR/postgres`, its password in `DATA_DIR/postgres.password`); `memory://` = a temporary directory with durability off, removed on exit",
  }),
  EMBEDDED_PG_PORT: integer(1, 65535, { default: undefined, shown: 'a free port', doc: 'Port of the embedded PostgreSQL (127.0.0.1 only, no unix socket)' }),
  WORLD_FILE: text({
    default: DEMO_WORLD_FILE,
    empty: 'nothing',
    doc: 'World loaded at start when the database holds no customer; empty string = load nothing',
  }),
  DATABASE_POOL_SIZE: integer(1, 100, { default: 5, doc: "Connections of the server's request pool (1–100); the in-process worker has 2 of its own" }),
  DATABASE_CONNECT_TIMEOUT_MS: integer(100, 600_000, {
    default: 5000,
    doc: 'Connecting to PostgreSQL (TCP and start-up); past it the request answers 503 `SERVICE_UNAVAILABLE` with `Retry-After`',
  }),
  DATABASE_POOL_WAIT_MS: integer(100, 600_000, { default: 30_000, doc: 'How long a request waits for a free connection while the pool is busy (then 503)' }),
  DATABASE_STATEMENT_TIMEOUT_MS: integer(100, 3_600_000, {
    default: 30_000,
    doc: '`statement_timeout` of every session (migrations and world loading run without it); the client gives up a second later, so a database that black-holes answers 503 within it',
  }),
  DATABASE_LOCK_TIMEOUT_MS: integer(100, 3_600_000, { default: 10_000, doc: '`lock_timeout` of every session: a lock wait past it answers 503' }),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: integer(1000, 3_600_000, {
    default: 30_000,
    doc: '`idle_in_transaction_session_timeout`: a transaction left open by a vanished client ends, releasing its locks',
  }),
  DATABASE_KEEPALIVE_MS: integer(1000, 600_000, {
    default: 10_000,
    doc: "TCP keepalive idle time on both ends (and `client_connection_check_interval` 2 s on the server), so a killed process's session and locks go within seconds",
  }),
  DATABASE_WORK_MEM_MB: integer(1, 2048, {
    default: 128,
    doc: "`work_mem` of every session: what one sort, hash or trigger's row store may hold before it spills to a temporary file. A 100,000-line payroll's statements (a payout chunk's events, the FX record's payouts and their reference check) hold tens of MB; at PostgreSQL's 4 MB they went through temporary files ([decision 12](decisions/0012-work-mem-128.md) says why). Only a statement that needs it takes it",
  }),
  TEST_DATABASE_URL: text({
    default: undefined,
    testsOnly: true,
    readIn: 'test/support/database.ts',
    doc: 'Tests only: run the suite on this PostgreSQL server',
  }),
});
