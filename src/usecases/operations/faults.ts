/**
 * Fault injection for the crash tests, and for nothing else: with NODE_ENV=test and
 * TEST_FAULT=<point>, the process kills itself (SIGKILL: no clean-up, no response) when it reaches
 * that point. The setting is read only under NODE_ENV=test (src/config/config.ts), so production can never
 * reach these kills.
 */
export type FaultPoint =
  /** The operation and its Idempotency-Key answer are written, the transaction not yet committed. */
  | 'idempotency:before-commit'
  /** Committed, the response not yet sent. */
  | 'idempotency:after-commit';

export function faultPoint(config: { testFault: string | undefined }, point: FaultPoint): void {
  if (config.testFault === point) process.kill(process.pid, 'SIGKILL');
}
