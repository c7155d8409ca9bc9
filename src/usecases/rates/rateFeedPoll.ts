import { FeedRefused, type FeedSnapshot, FeedUnreachable, MalformedFeed, type RateFeed, isAcceptableRate } from '../../adapters/rates/rateFeed.js';
import { Money } from '../../domain/money/money.js';
import { jumpBips } from '../../domain/reference/rates.js';
import { metrics } from '../../observability/telemetry.js';
import type { Database } from '../../store/database/db.js';
import {
  type FedRate,
  RATE_WINDOW_MS,
  claimFeedPoll,
  findCurrencyPegs,
  findFedRatesAt,
  findFedRatesOf,
  recordFeedFailure,
  saveFedRates,
} from '../../store/reference/exchangeRates.js';

/** Why a poll, or one of its rates, was not taken (the label of payroll_rate_feed_failures_total). */
export type FeedFailure = 'unreachable' | 'redirect' | 'too_large' | 'content_type' | 'malformed' | 'invalid_rate' | 'jump' | 'window' | 'peg' | 'older';

/** A currency pegged to another: 1 `anchor` buys `rate` of `currency`. */
interface Peg {
  anchor: string;
  currency: string;
  rate: string;
}

/** The little of pino the poller needs. */
export interface PollLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface RateFeedPollDeps {
  db: Database;
  feed: RateFeed;
  clock: () => Date;
  logger: PollLogger;
  pollIntervalSeconds: number;
  /** A fetched rate further than this (BIPS) from the stored one is refused. */
  maxJumpBps: number;
  /**
   * A fetched rate further than this (BIPS) from the one that stood a day before, or, for a pegged
   * currency, from its anchor's rate times the peg, is refused.
   */
  maxWindowBps: number;
  /** RATE_PEGS; the world file's pegs of other currencies are read from the database. */
  pegs: readonly Peg[];
}

interface Bounds {
  maxJumpBps: number;
  maxWindowBps: number;
  /** The rate that stood at the window's start, per currency. */
  windowStart: Map<string, string>;
  pegs: readonly Peg[];
}

interface Rejection {
  currency: string;
  rate: string;
  reason: FeedFailure;
}

/**
 * The worker's duty of reading the rate feed: at most once per interval across the fleet (the
 * poll is claimed in the database as work items are), and never at the cost of a good rate: an
 * unreachable, redirecting, oversized or malformed feed replaces nothing; a rate that is not a
 * decimal above zero, that jumps beyond RATE_MAX_JUMP_BPS from the stored one, that moved beyond
 * RATE_MAX_WINDOW_BPS over a day or from its peg, or that is older than the stored one is refused
 * while the feed's other rates are stored. Each failure is logged and counted; nothing here throws but a
 * failure of our own database, which the worker loop reports and backs off from.
 */
export async function pollRateFeedWhenDue(deps: RateFeedPollDeps): Promise<number> {
  const now = deps.clock();
  const due = await deps.db.transaction((tx) => claimFeedPoll(tx, now, new Date(now.getTime() + deps.pollIntervalSeconds * 1000)));
  if (!due) return 0;
  let snapshot: FeedSnapshot;
  try {
    snapshot = await deps.feed.read();
  } catch (error) {
    if (!(error instanceof FeedUnreachable) && !(error instanceof MalformedFeed) && !(error instanceof FeedRefused)) throw error;
    const reason: FeedFailure = error instanceof FeedRefused ? error.reason : error instanceof FeedUnreachable ? 'unreachable' : 'malformed';
    metrics.rateFeedFailure(reason);
    deps.logger.error({ reason, err: error.message }, 'rate feed: poll failed; the stored rates stay');
    await deps.db.transaction((tx) => recordFeedFailure(tx, deps.clock(), `${reason}: ${error.message}`));
    return 1;
  }
  const fetchedAt = deps.clock();
  const { changed, rejected } = await deps.db.transaction(async (tx) => {
    const worldPegs = (await findCurrencyPegs(tx)).filter((peg) => !deps.pegs.some((own) => own.currency === peg.currency));
    const bounds: Bounds = {
      maxJumpBps: deps.maxJumpBps,
      maxWindowBps: deps.maxWindowBps,
      windowStart: await findFedRatesAt(tx, snapshot.base, new Date(fetchedAt.getTime() - RATE_WINDOW_MS)),
      pegs: [...deps.pegs, ...worldPegs],
    };
    const outcome = sortQuotes(snapshot, await findFedRatesOf(tx, snapshot.base), fetchedAt, bounds);
    await saveFedRates(tx, snapshot.base, outcome.changed, fetchedAt);
    if (outcome.rejected.length > 0) await recordFeedFailure(tx, fetchedAt, rejectionSummary(outcome.rejected));
    return outcome;
  });
  for (const rejection of rejected) {
    metrics.rateFeedFailure(rejection.reason);
    deps.logger.warn({ ...rejection, base: snapshot.base, asOf: snapshot.asOf.toISOString() }, 'rate feed: rate refused; the stored rate stays');
  }
  metrics.rateFeedPolled();
  deps.logger.info({ base: snapshot.base, asOf: snapshot.asOf.toISOString(), changed: changed.length, refused: rejected.length }, 'rate feed: polled');
  return 1;
}

/** The feed's rates that may replace the stored ones, and those refused (with why). */
function sortQuotes(snapshot: FeedSnapshot, stored: readonly FedRate[], fetchedAt: Date, bounds: Bounds) {
  const last = new Map(stored.map((quote) => [quote.currency, quote]));
  const changed: FedRate[] = [];
  const rejected: Rejection[] = [];
  for (const [currency, rate] of snapshot.rates) {
    if (currency === snapshot.base) continue;
    const previous = last.get(currency);
    const reason = refusal(currency, rate, previous, snapshot, last, bounds);
    if (reason) rejected.push({ currency, rate, reason });
    else if (!previous || previous.asOf.getTime() !== snapshot.asOf.getTime() || !new Money(previous.rate).equals(new Money(rate))) {
      changed.push({ base: snapshot.base, currency, rate, asOf: snapshot.asOf, fetchedAt });
    }
  }
  return { changed, rejected };
}

/**
 * Why a fed rate is refused, if it is. Bounded three ways: against the last stored rate (a jump), the
 * one that stood a day before (a feed moving a little every poll walks past the jump bound, not past
 * this one), and, for a pegged currency, its anchor's rate times the peg.
 */
function refusal(
  currency: string,
  rate: string,
  previous: FedRate | undefined,
  snapshot: FeedSnapshot,
  last: Map<string, FedRate>,
  bounds: Bounds,
): FeedFailure | null {
  if (!isAcceptableRate(currency, rate)) return 'invalid_rate';
  const value = new Money(rate);
  if (previous) {
    if (snapshot.asOf < previous.asOf) return 'older';
    if (jumpBips(new Money(previous.rate), value).greaterThan(bounds.maxJumpBps)) return 'jump';
  }
  const windowStart = bounds.windowStart.get(currency);
  if (windowStart && jumpBips(new Money(windowStart), value).greaterThan(bounds.maxWindowBps)) return 'window';
  const peg = bounds.pegs.find((candidate) => candidate.currency === currency);
  const anchor = peg && anchorRate(peg.anchor, snapshot, last);
  if (peg && anchor && jumpBips(anchor.times(new Money(peg.rate)), value).greaterThan(bounds.maxWindowBps)) return 'peg';
  return null;
}

/** The anchor's rate against the feed's base: the base itself, this fetch's (when it is a rate), else the stored one. */
function anchorRate(anchor: string, snapshot: FeedSnapshot, last: Map<string, FedRate>): Money | null {
  if (anchor === snapshot.base) return new Money(1);
  const fetched = snapshot.rates.get(anchor);
  if (fetched !== undefined && isAcceptableRate(anchor, fetched)) return new Money(fetched);
  const stored = last.get(anchor);
  return stored ? new Money(stored.rate) : null;
}

function rejectionSummary(rejected: readonly Rejection[]): string {
  const shown = rejected.slice(0, 5).map((rejection) => `${rejection.currency} ${rejection.rate.slice(0, 30)} (${rejection.reason})`);
  return `refused ${rejected.length}: ${shown.join(', ')}${rejected.length > shown.length ? ', …' : ''}`;
}
