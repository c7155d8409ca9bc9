import type { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import { DomainError } from '../errors.js';
import { Money } from '../money/money.js';

export type RateSourceKind = components['schemas']['RateSource'];

/**
 * One pair's rate as the service takes it, read once and used whole (the estimate's figures, its
 * breakdown, the quote's tolerance check): the rate, where it comes from, the instant it is valid
 * for and the age beyond which the service does not stand behind it.
 */
export interface RateSnapshot {
  rate: Decimal;
  source: RateSourceKind;
  /** null: a rate with no age (a peg between its own two currencies): valid at any instant. */
  asOf: Date | null;
  /** When the feed's value was fetched; null for a world, manual or pure peg rate. */
  fetchedAt: Date | null;
  /** null: no bound (a world rate). */
  maxAgeMs: number | null;
}

/** Significant digits of a cross rate (neither currency the feed's base): the feed's own have 5 or 6. */
const CROSS_RATE_DIGITS = 10;

/** now − asOf, never negative (a feed dated ahead of our clock is as fresh as can be). */
export function rateAgeMs(snapshot: RateSnapshot, now: Date): number {
  return snapshot.asOf === null ? 0 : Math.max(0, now.getTime() - snapshot.asOf.getTime());
}

export function isRateUsable(snapshot: RateSnapshot, now: Date): boolean {
  return snapshot.maxAgeMs === null || rateAgeMs(snapshot, now) <= snapshot.maxAgeMs;
}

/** The instant a rate is valid for, as shown: a rate with no age is valid now. */
export function rateAsOf(snapshot: RateSnapshot, now: Date): Date {
  return snapshot.asOf ?? now;
}

/** "5 days 2 hours", "4 days 30 minutes", "40 seconds": an age as an operator reads it, to its two largest units. */
function durationText(ms: number): string {
  const units: [string, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ];
  const parts: string[] = [];
  let rest = ms;
  for (const [name, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 && parts.length < 2) parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(' ') : '0 seconds';
}

/**
 * The rate of `from` → `to` when the service stands behind it at `now`; otherwise the 400
 * EXCHANGE_RATE_UNAVAILABLE naming the pair and, for a rate too old, its source, asOf, age and bound.
 */
export function usableRate(pair: { from: string; to: string }, snapshot: RateSnapshot | null, now: Date): RateSnapshot {
  const currencyPair = `${pair.from}/${pair.to}`;
  if (snapshot === null) {
    const message = `No exchange rate is available for ${pair.from} to ${pair.to}`;
    throw new DomainError('EXCHANGE_RATE_UNAVAILABLE', message, { details: [{ message, currencyPair }] });
  }
  if (isRateUsable(snapshot, now)) return snapshot;
  const ageMs = rateAgeMs(snapshot, now);
  const maxAgeMs = snapshot.maxAgeMs ?? 0;
  const asOf = rateAsOf(snapshot, now).toISOString();
  const detail = `The ${pair.from} to ${pair.to} rate is ${durationText(ageMs)} old, beyond its bound of ${durationText(maxAgeMs)}`;
  const message = `The ${pair.from} to ${pair.to} rate (${snapshot.source}, as of ${asOf}) is ${durationText(ageMs)} old, beyond its bound of ${durationText(maxAgeMs)}; no estimate is made on it`;
  throw new DomainError('EXCHANGE_RATE_UNAVAILABLE', message, {
    details: [
      {
        message: detail,
        currencyPair,
        rateSource: snapshot.source,
        rateAsOf: asOf,
        rateAgeSeconds: Math.floor(ageMs / 1000),
        rateMaxAgeSeconds: Math.floor(maxAgeMs / 1000),
      },
    ],
  });
}

/** One currency's value against a feed's base: how many units of it one base unit buys. */
export interface RateLeg {
  value: Decimal;
  asOf: Date | null;
  fetchedAt: Date | null;
  /** The leg comes through a peg. */
  pegged: boolean;
}

/**
 * `from` → `to` through the base both legs are quoted against: to / from. A leg of the base itself
 * is 1, exactly, so a rate the feed publishes keeps its own digits; a cross rate is rounded
 * half-even to CROSS_RATE_DIGITS significant digits. The pair is as old as its older leg.
 */
export function crossRate(from: RateLeg, to: RateLeg): Omit<RateSnapshot, 'source' | 'maxAgeMs'> & { pegged: boolean } {
  const quotient = to.value.div(from.value);
  const rate = quotient.toSignificantDigits(CROSS_RATE_DIGITS, Money.ROUND_HALF_EVEN);
  const dates = [from.asOf, to.asOf].filter((date): date is Date => date !== null);
  const asOf = dates.length === 0 ? null : new Date(Math.min(...dates.map((date) => date.getTime())));
  const fetched = [from.fetchedAt, to.fetchedAt].filter((date): date is Date => date !== null);
  const fetchedAt = fetched.length === 0 ? null : new Date(Math.min(...fetched.map((date) => date.getTime())));
  return { rate: new Money(rate), asOf, fetchedAt, pegged: from.pegged || to.pegged };
}

/** How far (BIPS of the last good value) a fetched rate lies from it. */
export function jumpBips(last: Decimal, next: Decimal): Decimal {
  return next.minus(last).abs().div(last).times(10_000);
}

/** A rate of the exchange_rates table: the world file's (WORLD) or an admin's (MANUAL). */
export interface TableRate {
  from: string;
  to: string;
  rate: string;
  source: 'WORLD' | 'MANUAL';
  updatedAt: Date;
}

/** A feed's quote: one `base` buys `rate` of `currency`, valid for `asOf`, fetched at `fetchedAt`. */
export interface FedRate {
  base: string;
  currency: string;
  rate: string;
  asOf: Date;
  fetchedAt: Date;
}
