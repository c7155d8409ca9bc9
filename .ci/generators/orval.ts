// orval's clients of the bundled spec (npm run check:generators; configuration and why two
// outputs: orval.config.cjs): the JSON form of estimatePayrollFee through the fetch client, typed
// by the spec, and the CSV form through the axios client of the CSV forms.
import { estimatePayrollFee } from './generated/orval/api.js';
import { estimatePayrollFee as estimatePayrollFeeFromCsv } from './generated/orval/csv.js';
import { CSV_ESTIMATE, JSON_ESTIMATE, PAYROLL, SOURCE, expectEstimate } from './shared.js';

const json = await estimatePayrollFee(JSON_ESTIMATE);
expectEstimate('orval', 'JSON', json.status, json.data);

// axios throws on a 4xx or 5xx, so reaching the check means a 2xx; the check reads the body.
const csv = await estimatePayrollFeeFromCsv(CSV_ESTIMATE, { sourceAccountCurrencyId: SOURCE, payrollAccountCurrencyId: PAYROLL });
expectEstimate('orval', 'CSV', 200, csv);
