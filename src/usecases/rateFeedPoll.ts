import { type FeedSnapshot, FeedUnreachable, MalformedFeed, type RateFeed, isAcceptableRate } from '../adapters/rateFeed.js';
import { Money } from '../domain/money.js';
import { jumpBips } from '../domain/rates.js';
import { metrics } from '../observability/telemetry.js';
import type { Database } from '../store/db.js';
import { type FedRate, claimFeedPoll, findFedRatesOf, recordFeedFailure, saveFedRates } from '../store/exchangeRates.js';

/** Why a poll, or one of its rates, was not taken (the label of payroll_rate_feed_failures_total). */
export type FeedFailure = 'unreachable' | 'malformed' | 'invalid_rate' | 'jump' | 'older';

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
}

interface Rejection {
  currency: string;
  rate: string;
  reason: FeedFailure;
}

/**
 * The worker's duty of reading the rate feed: at most once per interval across the fleet (the
 * poll is claimed in the database as work items are), and never at the cost of a good rate: an
 * unreachable or malformed feed replaces nothing; a rate that is not a decimal above zero, that
 * jumps beyond RATE_MAX_JUMP_BPS from the stored one or that is older than it is refused while the
 * feed's other rates are stored. Each failure is logged and counted; nothing here throws but a
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
    if (!(error instanceof FeedUnreachable) && !(error instanceof MalformedFeed)) throw error;
    const reason: FeedFailure = error instanceof FeedUnreachable ? 'unreachable' : 'malformed';
    metrics.rateFeedFailure(reason);
    deps.logger.error({ reason, err: error.message }, 'rate feed: poll failed; the stored rates stay');
    await deps.db.transaction((tx) => recordFeedFailure(tx, deps.clock(), `${reason}: ${error.message}`));
    return 1;
  }
  const fetchedAt = deps.clock();
  const { changed, rejected } = await deps.db.transaction(async (tx) => {
    const outcome = sortQuotes(snapshot, await findFedRatesOf(tx, snapshot.base), fetchedAt, deps.maxJumpBps);
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
function sortQuotes(snapshot: FeedSnapshot, stored: readonly FedRate[], fetchedAt: Date, maxJumpBps: number) {
  const last = new Map(stored.map((quote) => [quote.currency, quote]));
  const changed: FedRate[] = [];
  const rejected: Rejection[] = [];
  for (const [currency, rate] of snapshot.rates) {
    if (currency === snapshot.base) continue;
    const previous = last.get(currency);
    const reason = refusal(currency, rate, previous, snapshot.asOf, maxJumpBps);
    if (reason) rejected.push({ currency, rate, reason });
    else if (!previous || previous.asOf.getTime() !== snapshot.asOf.getTime() || !new Money(previous.rate).equals(new Money(rate))) {
      changed.push({ base: snapshot.base, currency, rate, asOf: snapshot.asOf, fetchedAt });
    }
  }
  return { changed, rejected };
}

function refusal(currency: string, rate: string, previous: FedRate | undefined, asOf: Date, maxJumpBps: number): FeedFailure | null {
  if (!isAcceptableRate(currency, rate)) return 'invalid_rate';
  if (!previous) return null;
  if (asOf < previous.asOf) return 'older';
  return jumpBips(new Money(previous.rate), new Money(rate)).greaterThan(maxJumpBps) ? 'jump' : null;
}

function rejectionSummary(rejected: readonly Rejection[]): string {
  const shown = rejected.slice(0, 5).map((rejection) => `${rejection.currency} ${rejection.rate.slice(0, 30)} (${rejection.reason})`);
  return `refused ${rejected.length}: ${shown.join(', ')}${rejected.length > shown.length ? ', …' : ''}`;
}
