/**
 * Payroll from a spreadsheet: a CSV file estimates and creates as the JSON body does,
 * every problem of a bad file is answered at once with its row and column, the dialects a
 * spreadsheet writes parse, and the template round-trips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { balancesOf } from '../support/balances.js';
import { worldWith } from '../support/builders.js';
import { type PayrollEntry, usdToAed } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
// References as a finance team's spreadsheet knows its people (A1's is the test world's own).
const world = worldWith({
  beneficiaries: {
    [ids.beneficiaryA2]: { reference: 'A-EMP-2' },
    [ids.beneficiaryA3]: { reference: 'A-EMP-3' },
    [ids.beneficiaryAInactive]: { reference: 'A-EMP-6' },
  },
});
beforeAll(async () => (server = await startTestServer({ world })));
afterAll(() => server.close());

const csvInit = (csv: string, query: Record<string, string>) => ({
  body: csv,
  params: { query },
  headers: { 'Content-Type': 'text/csv' },
  // The body is the file's text as it is (openapi-fetch would JSON-encode it).
  bodySerializer: (text: unknown) => String(text),
});

function estimateCsv(csv: string, query: Record<string, string> = usdToAed) {
  return server.as(ids.userA).POST('/v1/customers/payroll/estimate', csvInit(csv, query));
}

function createCsv(csv: string, feeHash: string, query: Record<string, string> = usdToAed) {
  return server.as(ids.userA).POST('/v1/customers/payroll/requests', csvInit(csv, { ...query, feeHash }));
}

const threeRows = ['beneficiaryReference,beneficiaryId,amount,amountCurrencyType,purposeCode', 'A-EMP-1,,1000.00,SOURCE,SAL', 'A-EMP-2,,2000.00,PAYROLL,SAL'];
const jsonEntries: PayrollEntry[] = [
  { beneficiaryId: ids.beneficiaryA1, amount: '1000.00', amountCurrencyType: 'SOURCE' },
  { beneficiaryId: ids.beneficiaryA2, amount: '2000.00', amountCurrencyType: 'PAYROLL' },
  { beneficiaryId: ids.beneficiaryA3, amount: '250.5', amountCurrencyType: 'SOURCE' },
];
const threeRowFile = [...threeRows, `,${ids.beneficiaryA3},250.5,,SAL`].join('\n');

/** An estimate without what is new at each call. */
function figures(estimate: { feeHash: string; expiresAt: string }) {
  const { feeHash: _feeHash, expiresAt: _expiresAt, ...rest } = estimate;
  return rest;
}

describe('POST /v1/customers/payroll/estimate with text/csv', () => {
  it('gives the estimate of the same payroll sent as JSON, lines in file order', async () => {
    const fromCsv = await estimateCsv(threeRowFile);
    expect(fromCsv.response.status).toBe(200);
    const fromJson = await server.as(ids.userA).POST('/v1/customers/payroll/estimate', { body: { ...usdToAed, amountSplitDetails: jsonEntries } });
    expect(figures(fromCsv.data!.data)).toEqual(figures(fromJson.data!.data));
    expect(fromCsv.data!.data.lines!.map((line) => line.beneficiaryId)).toEqual([ids.beneficiaryA1, ids.beneficiaryA2, ids.beneficiaryA3]);
  });

  it.each([
    ['a byte-order mark', `\uFEFF${threeRowFile}`],
    ['semicolons', threeRowFile.replaceAll(',', ';')],
    ['CRLF line ends', threeRowFile.replaceAll('\n', '\r\n')],
    [
      'quoted fields and a blank line',
      [threeRows[0], '"A-EMP-1","","1000.00","SOURCE","SAL"', '', threeRows[2], `"",${ids.beneficiaryA3},"250.5",,SAL`].join('\n'),
    ],
    [
      'columns in another order, names in another case',
      ['AMOUNT,beneficiaryid,BeneficiaryReference', '1000.00,,A-EMP-1', '250.5,' + ids.beneficiaryA3 + ','].join('\n'),
    ],
  ])('parses a file with %s', async (_dialect, file) => {
    const { data, error, response } = await estimateCsv(file);
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data!.data.lines!.length).toBeGreaterThanOrEqual(2);
    expect(data!.data.lines![0]!.beneficiaryId).toBe(ids.beneficiaryA1);
  });

  it('answers a file with one problem of each kind once, listing all of them with rows and columns', async () => {
    const file = [
      'beneficiaryReference,beneficiaryId,amount,amountCurrencyType,purposeCode,bonus',
      'A-EMP-1,,1000.00,SOURCE,SAL,', // fine (row 2)
      'NOBODY-9,,10.00,,,', // unknown reference (row 3)
      `,${ids.beneficiaryAInactive},10.00,,,`, // inactive (row 4)
      'A-EMP-2,,12.5.0,,,', // bad amount (row 5)
      'A-EMP-3,,12.345,SOURCE,,', // too many decimals for USD (row 6)
      `,${ids.beneficiaryA1},5.00,,,`, // duplicate of row 2 (row 7)
    ].join('\n');
    const { error, response } = await estimateCsv(file);
    expect(response.status).toBe(400);
    expect(error!.error.code).toBe('VALIDATION_ERROR');
    // An unknown column is reported and ignored: the rows are still checked, every problem in one answer.
    const message = expect.any(String);
    expect(error!.error.details).toEqual([
      { row: 1, column: 'bonus', reason: 'UNKNOWN_COLUMN', message },
      { row: 3, column: 'beneficiaryReference', reason: 'UNKNOWN_BENEFICIARY', entryIndex: 1, message },
      { row: 4, column: 'beneficiaryId', reason: 'INACTIVE_BENEFICIARY', entryIndex: 2, message },
      { row: 5, column: 'amount', entryIndex: 3, message }, // not an amount at all: the column says it
      { row: 6, column: 'amount', reason: 'TOO_MANY_DECIMALS', entryIndex: 4, message },
      { row: 7, column: 'beneficiaryId', reason: 'DUPLICATE_ENTRY', entryIndex: 5, message },
    ]);
    // The same rows without the unknown column: their problems alone, the first one's entry on the error.
    const rows = await estimateCsv(file.replace(',bonus', '').replaceAll(/,$/gm, ''));
    expect(rows.response.status).toBe(400);
    expect(rows.error!.error.details).toEqual(error!.error.details!.slice(1));
    expect(rows.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', entryIndex: 1 });
    expect(rows.error!.error.reason).toBeUndefined(); // the problems break different rules
  });

  it('checks the beneficiary of a row with a bad amount too, and reports a repeat against the earlier row whatever is wrong with it', async () => {
    const file = [
      'beneficiaryId,amount',
      `${ids.beneficiaryA1},10.00`, // fine (row 2)
      `${ids.beneficiaryAInactive},1.2.3`, // bad amount, inactive beneficiary (row 3)
      `${ids.beneficiaryA2},-5`, // bad amount (row 4)
      `${ids.beneficiaryA2},5.00`, // repeats row 4 (row 5)
    ].join('\n');
    const { error } = await estimateCsv(file);
    const message = expect.any(String);
    expect(error!.error.details).toEqual([
      { row: 3, column: 'amount', entryIndex: 1, message },
      { row: 3, column: 'beneficiaryId', reason: 'INACTIVE_BENEFICIARY', entryIndex: 1, message },
      { row: 4, column: 'amount', entryIndex: 2, message },
      { row: 5, column: 'beneficiaryId', reason: 'DUPLICATE_ENTRY', entryIndex: 3, message },
    ]);
  });

  it('repeats at most 64 characters of a rejected cell, and lists at most 100 problems with a count of the rest', async () => {
    const huge = 'x'.repeat(200_000);
    const { error, response } = await estimateCsv(['beneficiaryId,amount', `${ids.beneficiaryA1},${huge}`].join('\n'));
    expect(response.status).toBe(400);
    expect(JSON.stringify(error).length).toBeLessThan(2000);
    // What is tested here is the message itself: the rejected cell is cut to 64 characters.
    expect(error!.error.details?.[0]?.message.startsWith(`${'x'.repeat(64)}… `)).toBe(true);
    const many = ['beneficiaryId,amount', ...Array.from({ length: 250 }, () => `${ids.beneficiaryA1},bad`)].join('\n');
    const listed = await estimateCsv(many);
    expect(listed.error!.error.details).toHaveLength(100);
    expect(listed.error!.error.detailsOmitted).toBe(250 + 249 - 100);
  });

  it.each([
    ['an empty file', '', { row: 1, reason: 'EMPTY_PAYROLL' }],
    ['a header and no rows', 'beneficiaryId,amount\n', { row: 2, reason: 'EMPTY_PAYROLL' }],
    ['no amount column', `beneficiaryId\n${ids.beneficiaryA1}`, { row: 1, column: 'amount', reason: 'MISSING_COLUMN' }],
    ['a column twice', `amount,beneficiaryId,Amount\n1.00,${ids.beneficiaryA1},2.00`, { row: 1, column: 'Amount', reason: 'DUPLICATE_COLUMN' }],
    ['a malformed amount', `beneficiaryId,amount\n${ids.beneficiaryA1},"1,000.00"`, { row: 2, column: 'amount', entryIndex: 0 }],
    ['a zero amount', `beneficiaryId,amount\n${ids.beneficiaryA1},0.00`, { row: 2, column: 'amount', reason: 'AMOUNT_NOT_POSITIVE', entryIndex: 0 }],
    [
      'an id and a reference',
      `beneficiaryId,beneficiaryReference,amount\n${ids.beneficiaryA1},A-EMP-1,1.00`,
      { row: 2, column: 'beneficiaryId', entryIndex: 0 },
    ],
    [
      'a PAYROLL amount with decimals JPY lacks',
      `beneficiaryId,amount,amountCurrencyType\n${ids.beneficiaryA1},10.5,PAYROLL`,
      { row: 2, column: 'amount', reason: 'TOO_MANY_DECIMALS', entryIndex: 0 },
      { ...usdToAed, payrollAccountCurrencyId: ids.acPartnerJpy },
    ],
    ['an unclosed quote', `beneficiaryId,amount\n"${ids.beneficiaryA1},1.00`, { row: expect.any(Number), reason: 'CSV_NOT_PARSABLE' }],
  ])('refuses %s, naming the row', async (_case, file, detail, query = usdToAed) => {
    const { error, response } = await estimateCsv(file, query);
    expect(response.status).toBe(400);
    expect(error!.error.code).toBe('VALIDATION_ERROR');
    expect(error!.error.details).toEqual([{ ...detail, message: expect.any(String) }]);
  });

  it('reports an entry the estimate refuses after the file checks with its row', async () => {
    // 0.001 USDC converts to 0.00 AED: the estimate's own rule, reported for row 2.
    const { error, response } = await estimateCsv(`beneficiaryId,amount\n${ids.beneficiaryA1},0.001`, { ...usdToAed, sourceAccountCurrencyId: ids.acAUsdc });
    expect(response.status).toBe(400);
    const place = { field: '/amountSplitDetails/0/amount', entryIndex: 0 };
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'ZERO_PAYOUT', ...place });
    expect(error!.error.details).toEqual([{ row: 2, reason: 'ZERO_PAYOUT', ...place, message: expect.any(String) }]);
  });

  it('needs the account currencies as query parameters, which a JSON body may not carry', async () => {
    const { error, response } = await estimateCsv(threeRowFile, { sourceAccountCurrencyId: ids.acAUsd });
    expect(response.status).toBe(400);
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'payrollAccountCurrencyId' });
    const json = await server.as(ids.userA).POST('/v1/customers/payroll/estimate', {
      body: { ...usdToAed, amountSplitDetails: jsonEntries },
      params: { query: { sourceAccountCurrencyId: ids.acAUsd } },
    });
    expect(json.response.status).toBe(400);
    expect(json.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'sourceAccountCurrencyId' });
  });

  it('refuses more than 100,000 rows as a problem of the file, and a file above 12 MB with 413', async () => {
    const rows = Array.from({ length: 100_001 }, () => 'A-EMP-1,1.00');
    const tooMany = await estimateCsv(['beneficiaryReference,amount', ...rows].join('\n'));
    expect(tooMany.response.status).toBe(400);
    expect(tooMany.error!.error.details).toEqual([{ reason: 'TOO_MANY_ENTRIES', message: expect.any(String) }]);
    const tooBig = await estimateCsv(['beneficiaryReference,amount', `${'X'.repeat(12 * 1024 * 1024)},1.00`].join('\n'));
    expect(tooBig.response.status).toBe(413);
    expect(tooBig.error!.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('replays an Idempotency-Key for the same file and query, and refuses it for another query', async () => {
    const key = `csv-${Date.now()}`;
    const post = (query: Record<string, string>) =>
      server.as(ids.userA).POST('/v1/customers/payroll/estimate', { ...csvInit(threeRowFile, query), params: { query, header: { 'Idempotency-Key': key } } });
    const first = await post(usdToAed);
    const repeat = await post(usdToAed);
    expect(repeat.data!.data.feeHash).toBe(first.data!.data.feeHash);
    const other = await post({ ...usdToAed, payrollAccountCurrencyId: ids.acPartnerJpy });
    expect(other.response.status).toBe(422);
    expect(other.error!.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it("refuses another customer's account currency with 404, as the JSON form", async () => {
    const { error, response } = await estimateCsv(threeRowFile, { ...usdToAed, sourceAccountCurrencyId: ids.acBUsd });
    expect(response.status).toBe(404);
    expect(error!.error.code).toBe('NOT_FOUND');
  });
});

describe('POST /v1/customers/payroll/requests with text/csv', () => {
  it('creates the request from the estimated file and debits its total once', async () => {
    const estimate = (await estimateCsv(threeRowFile)).data!.data;
    const before = await balancesOf(server.db, ids.acAUsd);
    const { data, response } = await createCsv(threeRowFile, estimate.feeHash);
    expect(response.status).toBe(201);
    expect(data!.data.status).toBe('PENDING');
    expect(data!.data.totalAmount).toBe(estimate.totalAmount);
    expect(data!.data.amountSplitDetails.map((split) => split.beneficiaryId)).toEqual([ids.beneficiaryA1, ids.beneficiaryA2, ids.beneficiaryA3]);
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(before.balance.minus(after.balance).toFixed(2)).toBe(estimate.totalAmount);
    const again = await createCsv(threeRowFile, estimate.feeHash);
    expect(again.response.status).toBe(409);
    expect(again.error!.error.code).toBe('FEE_HASH_ALREADY_USED');
  });

  it('needs a purposeCode on every row, and names a row that differs from the estimate', async () => {
    const estimate = (await estimateCsv(threeRowFile)).data!.data;
    const noPurpose = await createCsv(threeRowFile.replace('A-EMP-2,,2000.00,PAYROLL,SAL', 'A-EMP-2,,2000.00,PAYROLL,'), estimate.feeHash);
    expect(noPurpose.response.status).toBe(400);
    expect(noPurpose.error!.error.details).toEqual([{ row: 3, column: 'purposeCode', entryIndex: 1, message: expect.any(String) }]);
    const changed = await createCsv(threeRowFile.replace('2000.00', '2000.01'), estimate.feeHash);
    expect(changed.response.status).toBe(400);
    expect(changed.error!.error.code).toBe('FEE_HASH_MISMATCH');
    expect(changed.error!.error.details).toEqual([{ row: 3, field: '/amountSplitDetails/1/amount', entryIndex: 1, message: expect.any(String) }]);
  });
});

describe('GET /v1/customers/payroll/template.csv', () => {
  it("returns a header and an example row naming one of the customer's own beneficiaries, which estimates as it comes", async () => {
    const response = await fetch(`${server.baseUrl}/v1/customers/payroll/template.csv`, {
      headers: { Authorization: `Bearer ${await server.token(ids.userA)}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="payroll-template.csv"');
    const template = await response.text();
    // A-EMP-1: the test world's customer A's only beneficiary with a reference.
    expect(template).toBe('beneficiaryReference,beneficiaryId,amount,amountCurrencyType,purposeCode\nA-EMP-1,,1000.00,SOURCE,SAL\n');
    const asItComes = await estimateCsv(template);
    expect(asItComes.response.status).toBe(200);
    expect(asItComes.data!.data.sourceCurrencyAmount).toBe('1000.00');
  });

  it('is for customer users only', async () => {
    const response = await fetch(`${server.baseUrl}/v1/customers/payroll/template.csv`, {
      headers: { Authorization: `Bearer ${await server.token(ids.admin)}` },
    });
    expect(response.status).toBe(403);
  });
});
