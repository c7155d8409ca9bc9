// The client @hey-api/openapi-ts generates from the bundled spec (npm run check:generators),
// compiled under strict NodeNext with no change to the generated code (hey-api.config.mjs). It
// types one request media type per operation, the first (JSON): the CSV form is sent by replacing
// the serializer and the Content-Type, the file given where the JSON body's type is expected. The
// CSV answer (exportAccountTransactions) is typed as text.
import { client } from './generated/hey-api/client.gen.js';
import { estimatePayrollFee, exportAccountTransactions } from './generated/hey-api/sdk.gen.js';
import type { EstimatePayrollFeeRequest, PayrollFeeEstimate } from './generated/hey-api/types.gen.js';
import { BASE_URL, CSV_ESTIMATE, JSON_ESTIMATE, PAYROLL, SOURCE, TOKEN, expectEstimate } from './shared.js';

client.setConfig({ baseUrl: BASE_URL, auth: () => TOKEN });

const json = await estimatePayrollFee({ body: JSON_ESTIMATE });
const figures: PayrollFeeEstimate | undefined = json.data?.data;
expectEstimate('hey-api', 'JSON', json.response.status, json.data ?? json.error);

const csv = await estimatePayrollFee({
  body: CSV_ESTIMATE as unknown as EstimatePayrollFeeRequest,
  bodySerializer: (body: unknown) => String(body),
  headers: { 'Content-Type': 'text/csv' },
  query: { sourceAccountCurrencyId: SOURCE, payrollAccountCurrencyId: PAYROLL },
});
expectEstimate('hey-api', 'CSV', csv.response.status, csv.data ?? csv.error);

const statement = await exportAccountTransactions({ path: { accountCurrencyId: SOURCE }, query: { from: '2026-01-01T00:00:00.000Z' } });
const header: string | undefined = statement.data?.split('\r\n')[0];
if (statement.response.status !== 200 || !header?.includes(',')) throw new Error(`hey-api: exportAccountTransactions answered ${statement.response.status}`);
console.log(`hey-api: JSON estimate total ${figures?.totalAmount}; exportAccountTransactions 200, CSV header ${header.slice(0, 40)}…`);
