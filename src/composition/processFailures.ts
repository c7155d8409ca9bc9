import type { Logger } from 'pino';
import { type ProcessFailureKind, metrics } from '../observability/telemetry.js';
import { currentWorkContext } from '../observability/workContext.js';

/** Past this, a shutdown after a failure is cut short: the supervisor restarts a process that exited, not one that hangs. */
const SHUTDOWN_LIMIT_MS = 10_000;

export interface ProcessFailures {
  /** How the process stops cleanly (as on SIGTERM); until it is given, a failure exits at once. */
  shutdownWith(stop: (failure: ProcessFailureKind) => void): void;
}

/**
 * An exception nobody caught or a rejection nobody handled leaves the process in a state no code
 * planned for, so it does not go on serving: the failure is logged (fatal, with the request or
 * worker job it happened in when known: observability/workContext.ts), counted
 * (payroll_process_failures_total), and the process stops as on SIGTERM and exits with 1, so that
 * its supervisor (systemd, Kubernetes, the fleet's) starts it again. The exit code is 1 whatever
 * the shutdown does, and the shutdown is bounded. Registered once by each entry point (`npm start`,
 * `npm run worker`), as early as its logger exists.
 */
export function exitOnUnhandledFailures(logger: Logger): ProcessFailures {
  let stop: ((failure: ProcessFailureKind) => void) | undefined;
  let failing = false;
  const fail = (failure: ProcessFailureKind, reason: unknown): void => {
    reportProcessFailure(logger, failure, reason);
    if (failing) return;
    failing = true;
    process.exitCode = 1;
    setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS).unref();
    if (stop) stop(failure);
    else process.exit(1);
  };
  process.on('uncaughtException', (error) => fail('uncaughtException', error));
  process.on('unhandledRejection', (reason) => fail('unhandledRejection', reason));
  return {
    shutdownWith(given) {
      stop = given;
    },
  };
}

/** The fatal line and the count of one failure. */
function reportProcessFailure(logger: Logger, failure: ProcessFailureKind, reason: unknown): void {
  metrics.processFailure(failure);
  logger.fatal({ err: reason, failure, context: currentWorkContext() ?? null }, `${failure}: the process stops and exits with 1`);
}
