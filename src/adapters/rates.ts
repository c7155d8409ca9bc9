import type { Decimal } from 'decimal.js';
import { Money, formatExact } from '../domain/money.js';
import type { Queryable } from '../store/db.js';
import { findExchangeRate, saveExchangeRate } from '../store/exchangeRates.js';

/** Where exchange rates come from. rate = how many `to` units one `from` unit buys. */
export interface RateSource {
  /** null when no rate exists for the pair. */
  getRate(tx: Queryable, from: string, to: string): Promise<Decimal | null>;
  setRate(tx: Queryable, from: string, to: string, rate: Decimal): Promise<{ rate: Decimal; updatedAt: Date }>;
}

/**
 * The simulated rate source: the exchange_rates table, loaded from the world file and moved by
 * the admin rate endpoint. A currency converts to itself at 1. No rate is derived by inverting
 * the opposite pair: an inverse is rarely exact and would not be the rate a desk quotes.
 */
export class TableRateSource implements RateSource {
  async getRate(tx: Queryable, from: string, to: string): Promise<Decimal | null> {
    if (from === to) return new Money(1);
    const rate = await findExchangeRate(tx, from, to);
    return rate === null ? null : new Money(rate);
  }

  async setRate(tx: Queryable, from: string, to: string, rate: Decimal): Promise<{ rate: Decimal; updatedAt: Date }> {
    const saved = await saveExchangeRate(tx, from, to, formatExact(rate));
    return { rate: new Money(saved.rate), updatedAt: saved.updatedAt };
  }
}
