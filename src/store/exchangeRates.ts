import type { Queryable } from './db.js';

/** The exchange_rates table: loaded from the world file, moved by the admin rate endpoint. */

export async function findExchangeRate(tx: Queryable, from: string, to: string): Promise<string | null> {
  const rows = await tx.query<{ rate: string }>('SELECT rate::text AS rate FROM exchange_rates WHERE from_code = $1 AND to_code = $2', [from, to]);
  return rows[0]?.rate ?? null;
}

export async function saveExchangeRate(tx: Queryable, from: string, to: string, rate: string): Promise<{ rate: string; updatedAt: Date }> {
  const rows = await tx.query<{ rate: string; updatedAt: Date }>(
    `INSERT INTO exchange_rates (from_code, to_code, rate, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (from_code, to_code) DO UPDATE SET rate = EXCLUDED.rate, updated_at = EXCLUDED.updated_at
     RETURNING rate::text AS rate, updated_at AS "updatedAt"`,
    [from, to, rate],
  );
  return rows[0]!;
}
