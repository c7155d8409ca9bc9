import type { Response } from 'express';
import type { Config } from '../config.js';
import type { Principal } from '../usecases/principal.js';
import { sendError } from './envelope.js';

/**
 * A per-customer cap on concurrent heavy operations: an estimate or a creation of more than
 * `entries` beneficiaries parses, validates and prices thousands of entries, and a customer
 * running many at once would hold the event loop and the database for everyone. Beyond
 * `perCustomer` at once (in this instance) the next is answered 429 RATE_LIMITED with
 * Retry-After: 1 before any work, so one customer cannot starve the rest. Light requests are
 * never held back.
 */
export class HeavyOperationGate {
  private readonly running = new Map<string, number>();

  constructor(private readonly limits: Config['heavyOperations']) {}

  /** Heavy: a body whose `amountSplitDetails` has more than the configured entries. */
  isHeavy(body: unknown): boolean {
    const entries = (body as { amountSplitDetails?: unknown } | null | undefined)?.amountSplitDetails;
    return Array.isArray(entries) && entries.length > this.limits.entries;
  }

  /**
   * Runs `work` when the caller's customer has a slot free; otherwise answers 429 itself and
   * returns without running it. Callers without a customer (admins) are not capped.
   */
  async run(caller: Principal | undefined, body: unknown, res: Response, work: () => Promise<void>): Promise<void> {
    const customerId = caller?.customerId;
    if (!customerId || !this.isHeavy(body)) return work();
    const running = this.running.get(customerId) ?? 0;
    if (running >= this.limits.perCustomer) {
      res.setHeader('Retry-After', '1');
      return sendError(
        res,
        'RATE_LIMITED',
        `Too many heavy operations at once: at most ${this.limits.perCustomer} of more than ${this.limits.entries} entries per customer; retry after the Retry-After seconds`,
      );
    }
    this.running.set(customerId, running + 1);
    try {
      await work();
    } finally {
      const left = (this.running.get(customerId) ?? 1) - 1;
      if (left > 0) this.running.set(customerId, left);
      else this.running.delete(customerId);
    }
  }
}
