import type { Response } from 'express';
import type { Config } from '../../config/config.js';
import { metrics } from '../../observability/telemetry.js';
import { sendError } from './envelope.js';

interface Lane {
  running: number;
  waiting: Array<() => void>;
}

/**
 * A per-customer bulkhead on the operations that change a customer's rows (the idempotent ones):
 * at most `concurrent` of one customer's run at once in this instance, each holding a database
 * connection while it may wait on that customer's account lock; the rest wait here, holding none.
 * One customer whose account is locked (a long transaction, a queue of creations) therefore holds
 * a bounded share of the pool, and every other customer's requests find connections free. A
 * request still waiting after `waitMs` is answered 503 SERVICE_UNAVAILABLE with Retry-After,
 * having done nothing.
 */
export class CustomerBulkhead {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly limits: Config['customerWrites']) {}

  /** Runs `work` in the customer's lane; callers without a customer (admins) are not held back. */
  async run(customerId: string | null | undefined, res: Response, work: () => Promise<void>): Promise<void> {
    if (!customerId) return work();
    const release = await this.enter(customerId);
    if (!release) return this.refuse(res);
    try {
      await work();
    } finally {
      release();
    }
  }

  private enter(customerId: string): Promise<(() => void) | null> {
    const lane = this.lanes.get(customerId) ?? { running: 0, waiting: [] };
    this.lanes.set(customerId, lane);
    const admitted = () => {
      lane.running += 1;
      return () => this.leave(customerId, lane);
    };
    if (lane.running < this.limits.concurrent) return Promise.resolve(admitted());
    return new Promise((resolve) => {
      const admit = () => {
        clearTimeout(timer);
        resolve(admitted());
      };
      const timer = setTimeout(() => {
        lane.waiting.splice(lane.waiting.indexOf(admit), 1);
        resolve(null);
      }, this.limits.waitMs);
      lane.waiting.push(admit);
    });
  }

  private leave(customerId: string, lane: Lane): void {
    lane.running -= 1;
    const next = lane.waiting.shift();
    if (next) next();
    else if (lane.running === 0) this.lanes.delete(customerId);
  }

  private refuse(res: Response): void {
    metrics.customerWriteRefused();
    sendError(
      res,
      'SERVICE_UNAVAILABLE',
      `Too many of this customer's operations are waiting on its accounts (at most ${this.limits.concurrent} run at once); nothing was changed. Retry after the Retry-After seconds`,
    );
  }
}
