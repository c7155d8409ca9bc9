import type { SnapshotGauge } from './prometheus.js';

/** Sanctions screening hits no admin has decided (docs/screening.md): how many, and the oldest's age in seconds (0: none). */
export interface OpenScreeningHits {
  open: number;
  oldestSeconds: number;
}

export function defineScreeningGauges(gauge: SnapshotGauge): void {
  gauge('screening_hits_open', 'Sanctions screening hits no admin has decided yet (docs/screening.md)', [], (g, { screeningHits }) => {
    if (screeningHits) g.set(screeningHits.open);
  });
  gauge('screening_hit_oldest_open_seconds', 'Age of the oldest undecided sanctions screening hit, seconds (0: none)', [], (g, { screeningHits }) => {
    if (screeningHits) g.set(screeningHits.oldestSeconds);
  });
}
