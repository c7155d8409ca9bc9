import type { Decimal } from 'decimal.js';
import { Money } from '../domain/money.js';
import type { Database } from '../store/db.js';
import { findExchangeRate } from '../store/exchangeRates.js';

/** Where exchange rates come from. rate = how many `to` units one `from` unit buys. */
export interface RateSource {
  /** null when no rate exists for the pair. */
  getRate(from: string, to: string): Promise<Decimal | null>;
}

/**
 * The simulated rate source: the exchange_rates table, loaded from the world file and moved by
 * the admin rate endpoint (a use case writing through the store). A currency converts to itself
 * at 1. No rate is derived by inverting the opposite pair: an inverse is rarely exact and would
 * not be the rate a desk quotes.
 */
export class TableRateSource implements RateSource {
  constructor(private readonly db: Database) {}

  async getRate(from: string, to: string): Promise<Decimal | null> {
    if (from === to) return new Money(1);
    const rate = await findExchangeRate(this.db, from, to);
    return rate === null ? null : new Money(rate);
  }
}
