/**
 * The load scenarios in rounds, each compared with the bare baseline measured just before and just
 * after it (their mean), so a machine that gets busier or quieter mid-run moves both sides:
 *   B5 E5 B5 BR R BR   (B5: the bare app answering the estimate's envelope; BR: the bare app
 *                       answering the read's whole answer, the same size; E5: estimate-5; R: read)
 * The read is compared with both: the same-size baseline (like for like) and the small one (this
 * round's B5 pair). Each figure reported is the median over the rounds.
 */
import { type LoadFigures, load, log, median, meanOf, medianFigures, round, type Target } from './load.js';

export interface Compared extends LoadFigures {
  /** Median over rounds of (scenario req/s ÷ baseline req/s) of the same round. */
  ratio: number;
  /** Median over rounds of (scenario p99 ÷ baseline p99). */
  p99VsBaseline: number;
}

export interface RoundsResult {
  baseline: LoadFigures | null;
  baselineRead: LoadFigures | null;
  estimate5: Compared | null;
  read: (Compared & { ratioSmallBaseline: number }) | null;
}

export interface RoundsPlan {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  baseline: Target;
  baselineRead: Target;
  estimate5: Target | null;
  read: Target | null;
}

interface RoundFigures {
  baseline: LoadFigures;
  baselineRead?: LoadFigures;
  estimate5?: LoadFigures;
  read?: LoadFigures;
}

export async function runRounds(plan: RoundsPlan): Promise<RoundsResult> {
  const rounds: RoundFigures[] = [];
  for (let n = 0; n < plan.rounds; n++) {
    log(`round ${n + 1} of ${plan.rounds}`);
    rounds.push(await runRound(plan, n === 0 ? plan.warmupSeconds : 0));
  }
  const baseline = medianFigures(rounds.map((r) => r.baseline));
  const compared = (pick: (r: RoundFigures) => LoadFigures | undefined, base: (r: RoundFigures) => LoadFigures | undefined): Compared | null => {
    const pairs = rounds.map((r) => [pick(r), base(r)] as const).filter((pair): pair is readonly [LoadFigures, LoadFigures] => !!pair[0] && !!pair[1]);
    if (pairs.length === 0) return null;
    return {
      ...medianFigures(pairs.map(([scenario]) => scenario)),
      ratio: round(median(pairs.map(([scenario, b]) => scenario.rps / b.rps)), 3),
      p99VsBaseline: round(median(pairs.map(([scenario, b]) => scenario.p99Ms / b.p99Ms)), 2),
    };
  };
  const read = compared(
    (r) => r.read,
    (r) => r.baselineRead,
  );
  const readSmall = compared(
    (r) => r.read,
    (r) => r.baseline,
  );
  return {
    baseline,
    baselineRead: plan.read ? medianFigures(rounds.map((r) => r.baselineRead!)) : null,
    estimate5: compared(
      (r) => r.estimate5,
      (r) => r.baseline,
    ),
    read: read && readSmall && { ...read, ratioSmallBaseline: readSmall.ratio },
  };
}

async function runRound(plan: RoundsPlan, warmup: number): Promise<RoundFigures> {
  const { seconds } = plan;
  const small = async (warm: number) => load(plan.baseline, seconds, warm);
  const before = await small(warmup);
  const figures: Partial<RoundFigures> = {};
  let after: LoadFigures | undefined;
  if (plan.estimate5) {
    figures.estimate5 = await load(plan.estimate5, seconds, warmup);
    after = await small(0);
  }
  if (plan.read) {
    const readBefore = await load(plan.baselineRead, seconds, warmup);
    figures.read = await load(plan.read, seconds, warmup);
    figures.baselineRead = meanOf(readBefore, await load(plan.baselineRead, seconds, 0));
    after ??= await small(0);
  }
  return { ...figures, baseline: meanOf(before, after ?? before) };
}
