import type { Decimal } from 'decimal.js';
import { Money } from '../domain/money.js';
import type { Queryable } from '../store/db.js';

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
    const rows = await tx.query<{ rate: string }>(
      'SELECT rate::text AS rate FROM exchange_rates WHERE from_code = $1 AND to_code = $2',
      [from, to],
    );
    return rows[0] ? new Money(rows[0].rate) : null;
  }

  async setRate(tx: Queryable, from: string, to: string, rate: Decimal): Promise<{ rate: Decimal; updatedAt: Date }> {
    const rows = await tx.query<{ rate: string; updated_at: Date }>(
      `INSERT INTO exchange_rates (from_code, to_code, rate, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (from_code, to_code) DO UPDATE SET rate = EXCLUDED.rate, updated_at = EXCLUDED.updated_at
       RETURNING rate::text AS rate, updated_at`,
      [from, to, rate.toFixed()],
    );
    const row = rows[0]!;
    return { rate: new Money(row.rate), updatedAt: row.updated_at };
  }
}
