import type { Logger } from 'pino';
import { type ExecutionDeps, executePendingWork } from '../usecases/execution.js';
import { RETENTION_BATCH, purgeExpiredData } from '../usecases/retention.js';

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
        touched = await executePendingWork(this.deps);
        await this.retention();
      } catch (error) {
        this.logger.error({ err: error }, 'worker pass failed; retrying after a pause');
      }
      if (touched === 0 && this.running) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, this.pollMs);
        });
      }
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
