import type { Logger } from 'pino';
import { type ExecutionDeps, executePendingWork } from '../usecases/execution.js';

/**
 * The worker loop: a pass over the pending work, then a pause when there was nothing to do.
 * Several loops (in several processes) may run against one PostgreSQL: claims are exclusive.
 */
export class WorkerLoop {
  private running = false;
  private stopped: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;

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
}
