import { Money } from '../../domain/money/money.js';
import { type FedRate, type RateLeg, type RateSnapshot, type RateSourceKind, type TableRate, crossRate } from '../../domain/reference/rates.js';

/** A currency pair's snapshot, as the admin's listing shows it. */
export interface PairRate extends RateSnapshot {
  from: string;
  to: string;
}

/** Where exchange rates come from. rate = how many `to` units one `from` unit buys. */
export interface RateSource {
  /** The pair's rate with its source, asOf and bound, read once; null when the pair has none. A currency converts to itself at 1. */
  getRate(from: string, to: string): Promise<RateSnapshot | null>;
  /** Every pair of `currencies` that has a rate. */
  listRates(currencies: readonly string[]): Promise<PairRate[]>;
}

/** 1 `anchor` buys `rate` of `currency`. */
export interface Peg {
  anchor: string;
  currency: string;
  rate: string;
}

/** The rows a rate is made of: the table's rates (world and admin), a feed's quotes, the world's pegs. */
export interface RateRows {
  exchangeRate(from: string, to: string): Promise<TableRate | null>;
  exchangeRates(): Promise<TableRate[]>;
  fedRates(): Promise<FedRate[]>;
  currencyPegs(): Promise<Peg[]>;
}

/** The rate tables a rate source reads (the store's, given by the composition root); `snapshot` reads several as one. */
export interface RateTables extends RateRows {
  snapshot<T>(read: (rows: RateRows) => Promise<T>): Promise<T>;
}

interface Bounds {
  /** A feed's rates. */
  maxAgeMs: number | null;
  /** An admin's rates. */
  manualMaxAgeMs: number | null;
}

function sameCurrency(): RateSnapshot {
  return { rate: new Money(1), source: 'SAME_CURRENCY', asOf: null, fetchedAt: null, maxAgeMs: null };
}

function tableSnapshot(row: TableRate, bounds: Bounds): RateSnapshot {
  const maxAgeMs = row.source === 'MANUAL' ? bounds.manualMaxAgeMs : null;
  return { rate: new Money(row.rate), source: row.source, asOf: row.updatedAt, fetchedAt: null, maxAgeMs };
}

/**
 * RATE_SOURCE=world: the exchange_rates table, loaded from the world file and moved by the admin
 * rate endpoint. World rows never age; an admin's (MANUAL) ages by its own bound. No rate is
 * derived by inverting the opposite pair: an inverse is rarely exact and would not be the rate a
 * desk quotes.
 */
export class TableRateSource implements RateSource {
  constructor(
    private readonly tables: RateTables,
    private readonly bounds: Bounds = { maxAgeMs: null, manualMaxAgeMs: null },
  ) {}

  async getRate(from: string, to: string): Promise<RateSnapshot | null> {
    if (from === to) return sameCurrency();
    const row = await this.tables.exchangeRate(from, to);
    return row === null ? null : tableSnapshot(row, this.bounds);
  }

  async listRates(currencies: readonly string[]): Promise<PairRate[]> {
    const known = new Set(currencies);
    const rows = await this.tables.exchangeRates();
    return rows.filter((row) => known.has(row.from) && known.has(row.to)).map((row) => ({ from: row.from, to: row.to, ...tableSnapshot(row, this.bounds) }));
  }
}

/**
 * RATE_SOURCE=feed: an admin's manual rate while it is within its bound, else the feed's quotes
 * (stored by the worker's poller) crossed through the feed's base, with the declared pegs standing
 * in for currencies the feed does not publish. The pair's rows are read in one transaction, so the
 * rate, its legs and their dates are one snapshot.
 */
export class FeedRateSource implements RateSource {
  constructor(
    private readonly tables: RateTables,
    private readonly feedKind: Extract<RateSourceKind, 'ECB' | 'FEED'>,
    private readonly pegs: readonly Peg[],
    private readonly bounds: Bounds,
    private readonly clock: () => Date,
  ) {}

  async getRate(from: string, to: string): Promise<RateSnapshot | null> {
    if (from === to) return sameCurrency();
    return this.tables.snapshot(async (rows) => {
      const manual = await rows.exchangeRate(from, to);
      return this.resolve(from, to, manual, await fedLegs(rows, this.pegs));
    });
  }

  async listRates(currencies: readonly string[]): Promise<PairRate[]> {
    const { rows, legs } = await this.tables.snapshot(async (read) => ({ rows: await read.exchangeRates(), legs: await fedLegs(read, this.pegs) }));
    const manual = new Map(rows.map((row) => [`${row.from}/${row.to}`, row]));
    const rates: PairRate[] = [];
    for (const from of currencies) {
      for (const to of currencies) {
        if (from === to) continue;
        const snapshot = this.resolve(from, to, manual.get(`${from}/${to}`) ?? null, legs);
        if (snapshot) rates.push({ from, to, ...snapshot });
      }
    }
    return rates;
  }

  private resolve(from: string, to: string, manualRow: TableRate | null, legs: FedLegs): RateSnapshot | null {
    const manual = manualRow?.source === 'MANUAL' ? tableSnapshot(manualRow, this.bounds) : null;
    if (manual && (manual.maxAgeMs === null || this.clock().getTime() - manual.asOf!.getTime() <= manual.maxAgeMs)) return manual;
    const fed = this.fromFeed(from, to, legs);
    // A manual rate past its bound is still the pair's rate when the feed has none: the estimate then names it.
    return fed ?? manual;
  }

  private fromFeed(from: string, to: string, legs: FedLegs): RateSnapshot | null {
    const fromLeg = this.leg(from, legs, 0);
    const toLeg = this.leg(to, legs, 0);
    if (!fromLeg || !toLeg) return null;
    const crossed = crossRate(fromLeg, toLeg);
    return {
      rate: crossed.rate,
      asOf: crossed.asOf,
      fetchedAt: crossed.fetchedAt,
      source: crossed.pegged ? 'PEG' : this.feedKind,
      maxAgeMs: this.bounds.maxAgeMs,
    };
  }

  /**
   * How many units of `currency` one unit of the feed's base buys: published, or through a peg (two
   * pegs deep at most). A pegged leg is as old as its anchor's: a peg is applied to the feed's rate,
   * so a pair through a peg goes stale when the feed does. The base itself is as old as the feed's
   * last publication.
   */
  private leg(currency: string, legs: FedLegs, depth: number): RateLeg | null {
    if (legs.base === null) return null;
    if (currency === legs.base) return legs.baseLeg;
    const fed = legs.rates.get(currency);
    if (fed) return { value: new Money(fed.rate), asOf: fed.asOf, fetchedAt: fed.fetchedAt, pegged: false };
    const peg = legs.pegs.find((candidate) => candidate.currency === currency);
    const anchor = peg && depth < 2 ? this.leg(peg.anchor, legs, depth + 1) : null;
    if (!peg || !anchor) return null;
    return { ...anchor, value: anchor.value.times(new Money(peg.rate)), pegged: true };
  }
}

interface FedLegs {
  base: string | null;
  /** The base against itself: 1, as of the feed's newest publication. */
  baseLeg: RateLeg;
  rates: Map<string, FedRate>;
  /** RATE_PEGS, then the world file's pegs of the currencies RATE_PEGS does not peg. */
  pegs: readonly Peg[];
}

async function fedLegs(read: RateRows, configured: readonly Peg[]): Promise<FedLegs> {
  const rows = await read.fedRates();
  const worldPegs = (await read.currencyPegs()).filter((peg) => !configured.some((own) => own.currency === peg.currency));
  const newest = (pick: (row: FedRate) => Date) => (rows.length === 0 ? null : new Date(Math.max(...rows.map((row) => pick(row).getTime()))));
  const baseLeg = { value: new Money(1), asOf: newest((row) => row.asOf), fetchedAt: newest((row) => row.fetchedAt), pegged: false };
  return { base: rows[0]?.base ?? null, baseLeg, rates: new Map(rows.map((row) => [row.currency, row])), pegs: [...configured, ...worldPegs] };
}
