/** The second check of a world file, part two: rates and fee schedules. */
import { parseAmount } from '../domain/money/money.js';
import { requireCurrency, requireCustomer, type WorldIndex } from './referenceIndex.js';
import type { World, WorldFeeSchedule } from './types.js';
import { fail, uniqueIndex } from './validationError.js';

export function checkRatesAndFees(world: World, index: WorldIndex): void {
  checkRates(world, index);
  for (const code of Object.keys(world.fees.bankFeePerBeneficiary)) {
    requireCurrency(index, code, ['fees', 'bankFeePerBeneficiary', code]);
  }
  checkSchedules(index, world.fees.processor, 'processor');
  checkSchedules(index, world.fees.payout, 'payout');
  checkInternalPayoutRules(world, index);
}

function checkRates(world: World, index: WorldIndex): void {
  uniqueIndex(
    world.rates,
    (r) => `${r.from}->${r.to}`,
    (i) => ['rates', i],
    'rate',
  );
  world.rates.forEach((rate, i) => {
    requireCurrency(index, rate.from, ['rates', i, 'from']);
    requireCurrency(index, rate.to, ['rates', i, 'to']);
    if (rate.from === rate.to) fail(['rates', i, 'to'], 'must differ from from');
    if (parseAmount(rate.rate).isZero()) fail(['rates', i, 'rate'], 'must be greater than zero');
  });
  const pegs = world.pegs ?? [];
  uniqueIndex(
    pegs,
    (p) => p.currency,
    (i) => ['pegs', i],
    'peg of',
  );
  pegs.forEach((peg, i) => {
    requireCurrency(index, peg.anchor, ['pegs', i, 'anchor']);
    requireCurrency(index, peg.currency, ['pegs', i, 'currency']);
    if (peg.anchor === peg.currency) fail(['pegs', i, 'currency'], 'must differ from anchor');
    if (parseAmount(peg.rate).isZero()) fail(['pegs', i, 'rate'], 'must be greater than zero');
  });
}

/** One schedule per (provider, currency); min ≤ max. */
function checkSchedules(index: WorldIndex, list: readonly WorldFeeSchedule[], key: 'processor' | 'payout'): void {
  uniqueIndex(
    list,
    (s) => `${s.accountProvider}/${s.currency}`,
    (i) => ['fees', key, i],
    `${key} schedule for`,
  );
  list.forEach((schedule, i) => {
    requireCurrency(index, schedule.currency, ['fees', key, i, 'currency']);
    if (parseAmount(schedule.min).greaterThan(schedule.max)) fail(['fees', key, i, 'max'], 'must not be less than min');
  });
}

/** One rule per (customer or platform default, currency). */
function checkInternalPayoutRules(world: World, index: WorldIndex): void {
  const rules = world.fees.internalPayout ?? [];
  uniqueIndex(
    rules,
    (r) => `${r.customerId ?? 'platform default'}/${r.currency}`,
    (i) => ['fees', 'internalPayout', i],
    'internal payout rule for',
  );
  rules.forEach((rule, i) => {
    if (rule.customerId != null) requireCustomer(index, rule.customerId, ['fees', 'internalPayout', i, 'customerId']);
    requireCurrency(index, rule.currency, ['fees', 'internalPayout', i, 'currency']);
  });
}
