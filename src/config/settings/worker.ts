/** The worker: where it runs, how it paces itself, and what it deletes when (docs/security.md: every window). */
import { boolean, declare, integer, text } from '../values.js';

export const WORKER_SETTINGS = declare({
  WORKER_IN_PROCESS: boolean({ default: true, doc: 'Run the transfer worker inside the server; `false` when `npm run worker` runs beside it' }),
  WORKER_POLL_MS: integer(10, 60_000, { default: 250, doc: 'Pause of an idle worker between passes' }),
  WORKER_LEASE_MS: integer(1000, 600_000, {
    default: 30_000,
    doc: "How long a worker holds a claimed transfer; a crashed worker's items are resumed after it",
  }),
  SIMULATED_SETTLEMENT_MS: integer(0, 600_000, { default: 1000, doc: 'Delay after which the simulated processor and bank settle a transfer' }),
  // The spec promises a stored answer for 24 hours: never less.
  IDEMPOTENCY_KEY_RETENTION_HOURS: integer(24, 24 * 365, {
    default: 24,
    doc: 'Idempotency keys are kept this long (at least 24) ([security](security.md#what-is-kept-and-for-how-long))',
  }),
  EVENT_RETENTION_DAYS: integer(1, 3650, {
    default: 30,
    doc: 'Events (and their deliveries) are kept this long ([security](security.md#what-is-kept-and-for-how-long))',
  }),
  EXPIRED_ESTIMATE_RETENTION_HOURS: integer(0, 24 * 365, {
    default: 1,
    doc: 'Unused fee estimates are deleted this long after expiry ([security](security.md#what-is-kept-and-for-how-long))',
  }),
  RETENTION_INTERVAL_SECONDS: integer(1, 86_400, {
    default: 60,
    doc: "Pause between the worker's retention passes ([security](security.md#what-is-kept-and-for-how-long))",
  }),
  // A fault point of src/usecases/operations/faults.ts where the process kills itself, read only under NODE_ENV=test.
  TEST_FAULT: text({ default: undefined, testsOnly: true, doc: 'Tests only, read only under `NODE_ENV=test`: a fault point where the process kills itself' }),
});
