import type { RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import type { Principal } from '../usecases/principal.js';
import { principalOf } from './auth.js';
import { sendError } from './envelope.js';

/**
 * Bytes per allowed entry above which a body is plainly heavy, whatever its layout: a compact
 * entry takes 60–140 bytes, so no request within the entry limit comes near (256 KB for the
 * default 1,000 entries; a 10,000-entry estimate is about 750 KB).
 */
const PLAINLY_HEAVY_BYTES_PER_ENTRY = 256;

/**
 * A per-customer cap on concurrent heavy operations: an estimate or a creation of more than
 * `entries` beneficiaries parses, validates and prices thousands of entries, and a customer
 * running many at once would hold the event loop and the database for everyone. Beyond
 * `perCustomer` at once (in this instance) the next is answered 429 RATE_LIMITED with
 * Retry-After: 1 before any work of the use case, so one customer cannot starve the rest. While
 * the customer is at its cap, a body plainly too big to be light is refused before it is even read
 * (refuseEarly), so that refusals cost nothing either. Light requests are never held back.
 */
export class HeavyOperationGate {
  private readonly running = new Map<string, number>();

  constructor(private readonly limits: Config['heavyOperations']) {}

  /** Heavy: a body whose `amountSplitDetails` (or CSV file, one row per line) has more than the configured entries. */
  isHeavy(body: unknown): boolean {
    if (typeof body === 'string') return lineBreaks(body, this.limits.entries + 1) > this.limits.entries;
    const entries = (body as { amountSplitDetails?: unknown } | null | undefined)?.amountSplitDetails;
    return Array.isArray(entries) && entries.length > this.limits.entries;
  }

  /** Before the body is read: a customer at its cap sending a plainly heavy body gets its 429 now. */
  refuseEarly(): RequestHandler {
    return (req, res, next) => {
      const customerId = principalOf(res)?.customerId;
      const bytes = Number(req.headers['content-length'] ?? 0);
      // The connection stays open (Node discards the unread body): a verified client must get its 429.
      if (customerId && this.atCap(customerId) && bytes > this.limits.entries * PLAINLY_HEAVY_BYTES_PER_ENTRY) return this.refuse(res);
      next();
    };
  }

  /**
   * Runs `work` when the caller's customer has a slot free; otherwise answers 429 itself and
   * returns without running it. Callers without a customer (admins) are not capped.
   */
  async run(caller: Principal | undefined, body: unknown, res: Response, work: () => Promise<void>): Promise<void> {
    const customerId = caller?.customerId;
    if (!customerId || !this.isHeavy(body)) return work();
    if (this.atCap(customerId)) return this.refuse(res);
    this.running.set(customerId, (this.running.get(customerId) ?? 0) + 1);
    try {
      await work();
    } finally {
      const left = (this.running.get(customerId) ?? 1) - 1;
      if (left > 0) this.running.set(customerId, left);
      else this.running.delete(customerId);
    }
  }

  private atCap(customerId: string): boolean {
    return (this.running.get(customerId) ?? 0) >= this.limits.perCustomer;
  }

  private refuse(res: Response): void {
    res.setHeader('Retry-After', '1');
    sendError(
      res,
      'RATE_LIMITED',
      `Too many heavy operations at once: at most ${this.limits.perCustomer} of more than ${this.limits.entries} entries per customer; retry after the Retry-After seconds`,
    );
  }
}

/** Line breaks in `text`, counted up to `enough` (a CSV file's rows, the header aside). */
function lineBreaks(text: string, enough: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && count < enough; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
