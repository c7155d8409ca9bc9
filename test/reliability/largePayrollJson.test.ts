/**
 * A 100,000-line payroll as JSON under the documented defaults: its estimate and its creation,
 * each a body of about 10 MB, go through with every limit at its default (BODY_LIMIT,
 * HEAVY_OPERATION_ENTRIES), and the request holds every line, in the body's order, for exactly
 * the amount asked, with the books balanced after the debit. One line more is refused by the
 * contract tests; the same payroll as a CSV file runs in the bench (payroll-100k).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Money } from '../../src/domain/money.js';
import { signAccessToken } from '../../src/http/tokens.js';
import type { Database } from '../../src/store/db.js';
import { ids, testWorld } from '../fixtures/world.js';
import { expectBooksBalanced } from '../support/balances.js';
import { freshPostgres, testServerUrl } from '../support/database.js';
import type { Listening } from '../support/http.js';
import type { PayrollRequest } from '../support/payroll.js';
import { serveApp } from '../support/server.js';
import { type Api, apiAt, call, count, dataOf, estimate, extraBeneficiaries } from './api.js';

const LINES = 100_000;

describe(`a payroll of ${LINES} lines as JSON under the default limits`, () => {
  let database: { db: Database; drop: () => Promise<void> };
  let http: Listening;
  let api: Api;
  beforeAll(async () => {
    const beneficiaries = extraBeneficiaries(ids.customerA, LINES);
    database = await freshPostgres(testServerUrl(), { ...testWorld, beneficiaries: [...testWorld.beneficiaries, ...beneficiaries] });
    // Every limit at its default: only the worker is left out (nothing here needs it).
    const config = loadConfig({ NODE_ENV: 'test', VALIDATE_RESPONSES: 'false', WORKER_IN_PROCESS: 'false' });
    http = await serveApp(config, database.db);
    api = apiAt(http.url, (userId) => signAccessToken(config.jwt, userId, 3600));
  }, 180_000);
  afterAll(async () => {
    await http?.close();
    await database?.drop();
  });

  it('is estimated and created whole: every line once, in order, for its amount', async () => {
    const entries = extraBeneficiaries(ids.customerA, LINES).map((b, i) => ({ beneficiaryId: b.id, amount: `1.${String(i % 100).padStart(2, '0')}` }));
    const { createBody } = await estimate(api, entries);
    const createBytes = Buffer.byteLength(JSON.stringify(createBody));
    expect(createBytes, 'the body is of the size the limits are documented for').toBeGreaterThan(8_000_000);
    expect(createBytes).toBeLessThan(12 * 1024 * 1024);

    const created = dataOf<PayrollRequest>(await call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody), 201);

    expect(created.amountSplitDetails).toHaveLength(LINES);
    const wrong = created.amountSplitDetails.filter(
      (split, i) => split.beneficiaryId !== entries[i]!.beneficiaryId || !new Money(split.sourceCurrencyAmount).equals(entries[i]!.amount),
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(await count(database.db, 'SELECT count(*) AS n FROM amount_splits WHERE payroll_request_id = $1', [created.id])).toBe(LINES);
    await expectBooksBalanced(database.db);
  }, 120_000);
});
