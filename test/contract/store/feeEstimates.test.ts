/**
 * How a locked payroll estimate's entries are stored (migration 013): as the JSON text the service
 * wrote, out of line and uncompressed (writing 10,000 entries compressed was most of the estimate's
 * statement), and read back unchanged when the feeHash is consumed. And how the table is analysed
 * (migration 014): from a small sample, since every sampled row is copied whole into memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockedEstimateEntry } from '../../../src/domain/fees/estimateView.js';
import { consumePayrollFeeEstimate, insertPayrollFeeEstimate } from '../../../src/store/fees/feeEstimates.js';
import { ids } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

let database: FreshDatabase;
beforeAll(async () => (database = await freshDatabase()));
afterAll(() => database?.drop());

/** `count` entries of a SOURCE payroll, each beneficiary id distinct. */
function entries(count: number): LockedEstimateEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    beneficiaryId: `7b1e9999-0000-4000-8000-${index.toString().padStart(12, '0')}`,
    amount: `${1000 + index}.5`,
    amountCurrencyType: 'SOURCE',
    sourceCurrencyAmount: `${1000 + index}.50`,
    amountInPayrollCurrency: `${3654 + index}.13`,
  }));
}

describe('payroll_fee_estimates storage', () => {
  it('keeps 3,000 entries as written, uncompressed, and gives them back when the feeHash is consumed', async () => {
    const locked = entries(3000);
    const now = new Date('2026-11-23T10:00:00Z');
    await insertPayrollFeeEstimate(database.db, {
      feeHash: 'entries-storage-test',
      customerId: ids.customerA,
      createdByUserId: ids.userA,
      sourceAccountCurrencyId: ids.accountCurrencyAUsd,
      payrollAccountCurrencyId: ids.accountCurrencyPartnerAed,
      entries: locked,
      feeBreakdown: { totalFee: '0.00' },
      sourceCurrencyAmount: '1.00',
      feeAmount: '0.00',
      totalAmount: '1.00',
      estimatedReceivedAmount: '3.65',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 900_000),
    });
    const [stored] = await database.db.query<{ type: string; compression: string | null; bytes: number; text: string }>(
      `SELECT pg_typeof(entries)::text AS type, pg_column_compression(entries) AS compression,
              pg_column_size(entries) AS bytes, entries::text AS text
         FROM payroll_fee_estimates WHERE fee_hash = 'entries-storage-test'`,
    );
    expect({ type: stored!.type, compression: stored!.compression }).toEqual({ type: 'json', compression: null });
    expect(stored!.text).toBe(JSON.stringify(locked));
    expect(stored!.bytes).toBeGreaterThanOrEqual(Buffer.byteLength(stored!.text));

    const requestId = '7b1e9999-0000-4000-8000-0000000000aa';
    const consumed = await consumePayrollFeeEstimate(database.db, 'entries-storage-test', ids.customerA, requestId, new Date(now.getTime() + 60_000));
    expect(consumed.ok && consumed.estimate.entries).toEqual(locked);
  });

  it('is analysed from a sample of at most 3,000 rows, without statistics on the entries (migration 014)', async () => {
    // ANALYZE samples 300 rows per unit of the largest target; every column counts, new ones too.
    const columns = await database.db.query<{ name: string; target: number | null }>(
      `SELECT attname AS name, attstattarget::int AS target FROM pg_attribute
        WHERE attrelid = 'payroll_fee_estimates'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    );
    const targets = Object.fromEntries(columns.map((column) => [column.name, column.target]));
    expect(columns.filter((column) => column.target === null || column.target < 0 || column.target > 10)).toEqual([]);
    expect({ entries: targets.entries, fee_breakdown: targets.fee_breakdown }).toEqual({ entries: 0, fee_breakdown: 0 });
  });
});
