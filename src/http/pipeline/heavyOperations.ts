import type { RequestHandler, Response } from 'express';
import type { Config } from '../../config/config.js';
import { metrics } from '../../observability/telemetry.js';
import type { Principal } from '../../usecases/access/principal.js';
import { principalOf } from '../access/auth.js';
import { sendError } from './envelope.js';
import type { SharedLimits } from './sharedLimits.js';

/**
 * Bytes per allowed entry above which a body is plainly heavy, whatever its layout: a compact
 * entry takes 60–140 bytes, so no request within the entry limit comes near (256 KB for the
 * default 1,000 entries; a 10,000-entry estimate is about 750 KB).
 */
const PLAINLY_HEAVY_BYTES_PER_ENTRY = 256;
/**
 * A CSV file is heavy from its size too, before it is parsed: a row takes 30–60 bytes, so a file
 * over 64 bytes per allowed entry costs as much as a heavy one whatever its line count (one huge
 * cell, say).
 */
const HEAVY_CSV_BYTES_PER_ENTRY = 64;
/** A refused body up to this size is read and dropped (the body limit is 12 MB by default); a bigger one is left unread. */
const DRAIN_AT_MOST_BYTES = 16 * 1024 * 1024;
/** A shared slot not released within this long (its instance died) is free again. */
const SLOT_LEASE_MS = 10 * 60_000;

/** Takes a slot when fewer than ARGV[4] live ones exist: one round trip, atomic across instances. */
const ACQUIRE_SLOT = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/**
 * A per-customer cap on concurrent heavy operations: an estimate or a creation of more than
 * `entries` beneficiaries parses, validates and prices thousands of entries, and a customer
 * running many at once would hold the event loop and the database for everyone. Beyond
 * `perCustomer` at once (across instances when Redis is configured, else in this instance) the next is answered 429 RATE_LIMITED with
 * Retry-After: 1 before any work of the use case, so one customer cannot starve the rest. A body
 * declared plainly too big to be light counts from its Content-Length, before it is even read
 * (admitByDeclaredSize), so that neither its parsing nor its validation escapes the cap and
 * refusals cost nothing. Light requests are never held back.
 */
export class HeavyOperationGate {
  private readonly running = new Map<string, number>();
  private nextSlot = 0;

  constructor(
    private readonly limits: Config['heavyOperations'],
    private readonly shared?: SharedLimits,
  ) {}

  /** Heavy: a body whose `amountSplitDetails` (or CSV file, one row per line) has more than the configured entries, or a large CSV file. */
  isHeavy(body: unknown): boolean {
    if (typeof body === 'string') {
      return body.length > this.limits.entries * HEAVY_CSV_BYTES_PER_ENTRY || lineBreaks(body, this.limits.entries + 1) > this.limits.entries;
    }
    const entries = (body as { amountSplitDetails?: unknown } | null | undefined)?.amountSplitDetails;
    return Array.isArray(entries) && entries.length > this.limits.entries;
  }

  /**
   * Before the body is read: a customer's body declared (Content-Length) plainly too big to be
   * light takes a slot now, whatever it turns out to contain, and keeps it until its answer has
   * gone; at the cap it is answered 429 unread. Parsing and validating ten such bodies is the work
   * the cap is for, so it never runs for more than `perCustomer` of them at once.
   */
  admitByDeclaredSize(): RequestHandler {
    return async (req, res, next) => {
      const customerId = principalOf(res)?.customerId;
      const bytes = Number(req.headers['content-length'] ?? 0);
      if (!customerId || !(bytes > this.limits.entries * PLAINLY_HEAVY_BYTES_PER_ENTRY)) return next();
      const release = await this.acquire(customerId);
      if (!release) {
        // Drained unparsed, so that a client still sending reads its 429 rather than a reset connection.
        if (bytes <= DRAIN_AT_MOST_BYTES) req.resume();
        return this.refuse(res);
      }
      res.locals.heavySlotHeld = true;
      res.once('close', () => void release());
      next();
    };
  }

  /**
   * Runs `work` when the caller's customer has a slot free; otherwise answers 429 itself and
   * returns without running it. Callers without a customer (admins) are not capped.
   */
  async run(caller: Principal | undefined, body: unknown, res: Response, work: () => Promise<void>): Promise<void> {
    const customerId = caller?.customerId;
    // A body admitted by its declared size holds its slot already (admitByDeclaredSize).
    if (!customerId || res.locals.heavySlotHeld || !this.isHeavy(body)) return work();
    const release = await this.acquire(customerId);
    if (!release) return this.refuse(res);
    try {
      await work();
    } finally {
      await release();
    }
  }

  /** A slot of the customer's, shared through Redis while it answers, else this instance's; null at the cap. */
  private async acquire(customerId: string): Promise<(() => Promise<void>) | null> {
    const key = `${this.shared?.prefix}heavy:${customerId}`;
    const member = `${process.pid}:${Date.now()}:${this.nextSlot++}`;
    const taken = await this.shared?.command([
      'EVAL',
      ACQUIRE_SLOT,
      '1',
      key,
      String(Date.now()),
      member,
      String(SLOT_LEASE_MS),
      String(this.limits.perCustomer),
    ]);
    if (taken === 1) return async () => void (await this.shared?.command(['ZREM', key, member]));
    if (taken === 0) return null;
    if (this.localCount(customerId) >= this.limits.perCustomer) return null;
    this.running.set(customerId, this.localCount(customerId) + 1);
    return async () => {
      const left = this.localCount(customerId) - 1;
      if (left > 0) this.running.set(customerId, left);
      else this.running.delete(customerId);
    };
  }

  private localCount(customerId: string): number {
    return this.running.get(customerId) ?? 0;
  }

  private refuse(res: Response): void {
    metrics.heavyOperationRefused();
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
