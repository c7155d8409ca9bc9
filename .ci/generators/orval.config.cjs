// orval on the bundled spec (npm run check:generators), configured as an integrator needs it.
// orval writes one request media type per operation: when an operation takes two (estimatePayrollFee
// and createPayrollRequest take JSON or a CSV file) it sends neither Content-Type, and the server
// answers 415. So two outputs, each filtered to one media type (`override.contentType`, which
// filters the answers too), each calling the service through a request function of ours
// (orval-mutators.ts: base URL and token):
// - `api.ts`, the fetch client of every operation with JSON bodies (`Content-Type: application/json`);
// - `csv.ts`, an axios client of the CSV forms of the Payroll operations, the file sent as text
//   (orval's fetch client would JSON-encode it) under `Content-Type: text/csv`. Their answers are JSON, which this
//   filter leaves untyped (`unknown`): read them with the JSON client's types.
/* global module -- orval loads its configuration as CommonJS */
const input = { target: '../../dist/openapi.json', validation: false };

module.exports = {
  json: {
    input,
    output: {
      target: './generated/orval/api.ts',
      client: 'fetch',
      mode: 'single',
      override: { contentType: { exclude: ['text/csv'] }, mutator: { path: './orval-mutators.ts', name: 'fetchRequest', extension: '.js' } },
    },
  },
  csv: {
    input: { ...input, filters: { tags: ['Payroll'] } },
    output: {
      target: './generated/orval/csv.ts',
      client: 'axios-functions',
      mode: 'single',
      override: { contentType: { include: ['text/csv'] }, mutator: { path: './orval-mutators.ts', name: 'axiosRequest', extension: '.js' } },
    },
  },
};
