import type { Logger } from 'pino';
import { type ExecutionDeps, executePendingWork } from '../usecases/payroll/execution.js';
import { RETENTION_BATCH, purgeExpiredData } from '../usecases/operations/retention.js';
import { noticeBankReportContradictions } from '../usecases/bank/bankReportContradictions.js';
import { runInWorkContext } from '../observability/workContext.js';

const MAX_BACKOFF_MS = 30_000;

/**
 * The worker loop: a pass over the pending work, then a pause when there was nothing to do; every
 * RETENTION_INTERVAL_SECONDS (and at once again while a batch comes back full), a retention pass
 * deletes what is kept only for a while. Several loops (in several processes) may run against one
 * PostgreSQL: claims are exclusive, and retention skips the rows another holds.
 */
export class WorkerLoop {
  private running = false;
  private stopped: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private nextRetentionAt = 0;
  /** Passes failed in a row (the database away, say): the pause doubles with each, up to MAX_BACKOFF_MS. */
  private failures = 0;
  private lastFailureLogAt = 0;

  constructor(
    private readonly deps: ExecutionDeps,
    private readonly pollMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = this.run();
  }

  /** Finishes the pass in progress (no item is left half-way by us) and stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.stopped;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let touched = 0;
      try {
        touched = await runInWorkContext({ job: 'worker pass' }, () => executePendingWork(this.deps));
        await runInWorkContext({ job: 'bank report contradictions' }, () => this.contradictions());
        await runInWorkContext({ job: 'retention' }, () => this.retention());
        this.recovered();
      } catch (error) {
        this.failed(error);
      }
      if ((touched === 0 || this.failures > 0) && this.running) {
        const pauseMs = this.failures > 0 ? Math.min(this.pollMs * 2 ** this.failures, MAX_BACKOFF_MS) : this.pollMs;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, pauseMs);
        });
      }
    }
  }

  /** The first failure of a run is logged at once, the rest at most every MAX_BACKOFF_MS: an outage is a few lines, not four a second. */
  private failed(error: unknown): void {
    this.failures += 1;
    if (this.failures > 1 && Date.now() - this.lastFailureLogAt < MAX_BACKOFF_MS) return;
    this.lastFailureLogAt = Date.now();
    this.logger.error({ err: error, failuresInARow: this.failures }, 'worker pass failed; backing off before the next');
  }

  private recovered(): void {
    if (this.failures > 0) this.logger.info({ failuresInARow: this.failures }, 'worker passes succeed again');
    this.failures = 0;
  }

  /** A bank report that contradicts a settled payout is loud: a warning per payout (and the metric). */
  private async contradictions(): Promise<void> {
    for (const contradiction of await noticeBankReportContradictions(this.deps)) {
      this.logger.warn({ ...contradiction }, 'bank status report contradicts a settled payout; the payout keeps its first outcome');
    }
  }

  /** One retention pass when it is due; the next is due at once after a full batch, else after the interval. */
  private async retention(): Promise<void> {
    if (Date.now() < this.nextRetentionAt) return;
    // Scheduled first: a pass that fails (the database away) is tried again after the interval, not on every pass.
    this.nextRetentionAt = Date.now() + this.deps.config.retention.intervalSeconds * 1000;
    const purged = await purgeExpiredData(this.deps);
    if (Object.values(purged).some((count) => count >= RETENTION_BATCH)) this.nextRetentionAt = 0;
    if (Object.values(purged).some((count) => count > 0)) this.logger.info({ purged }, 'retention: expired data deleted');
  }
}
