import { notFound } from '../../domain/errors.js';
import type { FeeSchedule } from '../../domain/fees/payrollFees.js';
import { type RateSnapshot, isRateUsable } from '../../domain/reference/rates.js';
import type { Database } from '../../store/database/db.js';
import { type EstimateAccountCurrency, findEstimateReferenceData } from '../../store/reference/referenceData.js';
import type { UseCaseDeps } from '../deps.js';

/**
 * The reference data of a payroll estimate, cached in the process so that the hot path is one
 * round trip. Each entry carries the reference_version it was read at; the estimate's statement
 * inserts only while that version is current, so a change made anywhere (the admin rate endpoint
 * of another instance, a seed, an operator's SQL) is noticed on the next estimate and reloaded.
 * A rate change made in this process also forgets the cache at once (forgetEstimateReferences); a
 * feed's rates move the version as an admin's do. A cached rate that has aged past its bound is read
 * again (a manual rate gives way to the feed's).
 */
export interface EstimateReference {
  referenceVersion: string;
  source: EstimateAccountCurrency;
  payroll: EstimateAccountCurrency;
  /** 0 without a fee profile. */
  spreadBips: number;
  bankFeePerBeneficiary: string | null;
  /**
   * The rate source's snapshot of source → payroll (SAME_CURRENCY at 1 for a same-currency payroll),
   * read after the reference version: a rate moved since makes the estimate's insert see a newer
   * version and start again, so the figures, the breakdown and the feeHash are of one rate. Null
   * when the pair has none.
   */
  rate: RateSnapshot | null;
  processorSchedule: FeeSchedule | null;
}

interface EstimateAccountIds {
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
}

/** Entries per database before the cache starts over: bounds memory whatever callers send. */
const MAX_ENTRIES = 10_000;
const caches = new WeakMap<Database, Map<string, EstimateReference>>();

function cacheOf(db: Database): Map<string, EstimateReference> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/** Forgets every cached reference of this database (after a rate change, or a stale version). */
export function forgetEstimateReferences(db: Database): void {
  caches.get(db)?.clear();
}

/**
 * The reference data for the caller's two account currencies: cached, or read (and cached when
 * complete). Throws the 404 of an account currency that is missing or not the caller's.
 */
export async function estimateReference(deps: UseCaseDeps, customerId: string, ids: EstimateAccountIds): Promise<EstimateReference> {
  const key = `${customerId}|${ids.sourceAccountCurrencyId.toLowerCase()}|${ids.payrollAccountCurrencyId.toLowerCase()}`;
  const cache = cacheOf(deps.db);
  const cached = cache.get(key);
  if (cached?.rate && isRateUsable(cached.rate, deps.clock())) return cached;
  const loaded = await loadEstimateReference(deps, customerId, ids);
  // An unavailable rate is an error path: not cached, so a rate added later is found at once.
  if (loaded.rate && isRateUsable(loaded.rate, deps.clock())) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, loaded);
  }
  return loaded;
}

async function loadEstimateReference(deps: UseCaseDeps, customerId: string, ids: EstimateAccountIds): Promise<EstimateReference> {
  const reference = await findEstimateReferenceData(deps.db, customerId, ids.sourceAccountCurrencyId, ids.payrollAccountCurrencyId);
  const { source, payroll } = reference;
  if (!source || source.customerId !== customerId) {
    throw notFound(`Source account currency ${ids.sourceAccountCurrencyId} not found`);
  }
  // A platform partner-bank account has no customer (customerId null).
  if (!payroll || (payroll.customerId !== null && payroll.customerId !== customerId)) {
    throw notFound(`Payroll account currency ${ids.payrollAccountCurrencyId} not found`);
  }
  const rate = await deps.rates.getRate(source.currencyCode, payroll.currencyCode);
  const processorSchedule = await deps.processor.debitFeeSchedule({ accountProvider: source.accountProvider, currencyCode: source.currencyCode });
  return {
    // Never null here: both rows were found, and the version is read with them.
    referenceVersion: reference.referenceVersion ?? '0',
    source,
    payroll,
    spreadBips: reference.spreadBips ?? 0,
    bankFeePerBeneficiary: reference.bankFeePerBeneficiary,
    rate,
    processorSchedule,
  };
}
