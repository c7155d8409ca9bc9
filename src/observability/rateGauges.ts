import type { Gauge } from 'prom-client';
import type { GaugeSnapshot, SnapshotGauge } from './prometheus.js';

/** One currency pair's rate: its age and bound, read with the backlog. */
export interface RateAgeRow {
  /** "USD/JPY". */
  pair: string;
  ageSeconds: number;
  /** null: no bound (a world rate). */
  maxAgeSeconds: number | null;
}

/** Each pair's rate age and bound (the alert compares them); a pair that lost its rate drops out. */
export function defineRateGauges(gauge: SnapshotGauge): void {
  const fill = (pick: (row: RateAgeRow) => number | null) => (g: Gauge, snapshot: GaugeSnapshot) => {
    g.reset();
    for (const row of snapshot.rates ?? []) {
      const value = pick(row);
      if (value !== null) g.set({ pair: row.pair }, value);
    }
  };
  gauge(
    'exchange_rate_age_seconds',
    "Age of each currency pair's rate (now − asOf), seconds",
    ['pair'],
    fill((row) => row.ageSeconds),
  );
  gauge(
    'exchange_rate_max_age_seconds',
    "The age bound of each currency pair's rate, seconds (absent: no bound)",
    ['pair'],
    fill((row) => row.maxAgeSeconds),
  );
}
