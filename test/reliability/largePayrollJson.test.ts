/**
 * A 100,000-line payroll as JSON under the documented defaults: its estimate and its creation
 * (bodies of about 8 and 9 MB) go through with every limit at its default (BODY_LIMIT,
 * HEAVY_OPERATION_ENTRIES), and the request holds every line, in the body's order, for exactly
 * the amount asked, with the books balanced after the debit. One line more is refused by the
 * contract tests; the same payroll as a CSV file runs in the bench (payroll-100k).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../src/domain/money/money.js';
import { ids } from '../fixtures/world.js';
import { expectBooksBalanced } from '../support/balances.js';
import type { PayrollRequest } from '../support/payroll.js';
import { type ApiOnDatabase, apiWithBeneficiaries, call, count, dataOf, estimate, extraBeneficiaries } from './api.js';

const LINES = 100_000;

describe(`a payroll of ${LINES} lines as JSON under the default limits`, () => {
  let scale: ApiOnDatabase;
  // Every limit at its default: only the worker is left out (nothing here needs it).
  beforeAll(async () => {
    scale = await apiWithBeneficiaries(extraBeneficiaries(ids.customerA, LINES), false);
  }, 180_000);
  afterAll(async () => {
    await scale?.http.close();
    await scale?.database.drop();
  });

  it('is estimated and created whole: every line once, in order, for its amount', async () => {
    const entries = extraBeneficiaries(ids.customerA, LINES).map((b, i) => ({ beneficiaryId: b.id, amount: `1.${String(i % 100).padStart(2, '0')}` }));
    const { createBody } = await estimate(scale.api, entries);
    const createBytes = Buffer.byteLength(JSON.stringify(createBody));
    expect(createBytes, 'the body is of the size the limits are documented for').toBeGreaterThan(8_000_000);
    expect(createBytes).toBeLessThan(12 * 1024 * 1024);

    const created = dataOf<PayrollRequest>(await call(scale.api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody), 201);

    expect(created.amountSplitDetails).toHaveLength(LINES);
    const wrong = created.amountSplitDetails.filter(
      (split, i) => split.beneficiaryId !== entries[i]!.beneficiaryId || !new Money(split.sourceCurrencyAmount).equals(entries[i]!.amount),
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(await count(scale.database.db, 'SELECT count(*) AS n FROM amount_splits WHERE payroll_request_id = $1', [created.id])).toBe(LINES);
    await expectBooksBalanced(scale.database.db);
  }, 120_000);
});
