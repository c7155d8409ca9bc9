// openapi-typescript's types of the bundled spec with openapi-fetch (npm run check:generators):
// the JSON and the CSV form of estimatePayrollFee, both typed by the spec's two media types.
import createClient from 'openapi-fetch';
import type { paths } from './generated/openapi-fetch.js';
import { BASE_URL, CSV_ESTIMATE, JSON_ESTIMATE, PAYROLL, SOURCE, TOKEN, expectEstimate } from './shared.js';

const client = createClient<paths>({ baseUrl: BASE_URL, headers: { Authorization: `Bearer ${TOKEN}` } });

const json = await client.POST('/v1/customers/payroll/estimate', { body: JSON_ESTIMATE });
expectEstimate('openapi-fetch', 'JSON', json.response.status, json.data ?? json.error);

const csv = await client.POST('/v1/customers/payroll/estimate', {
  params: { query: { sourceAccountCurrencyId: SOURCE, payrollAccountCurrencyId: PAYROLL } },
  body: CSV_ESTIMATE,
  bodySerializer: (body: unknown) => String(body),
  headers: { 'Content-Type': 'text/csv' },
});
expectEstimate('openapi-fetch', 'CSV', csv.response.status, csv.data ?? csv.error);
