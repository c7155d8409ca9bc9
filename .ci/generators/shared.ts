// What every generator's program sends (npm run check:generators): the demo world's Acme Trading
// estimates a payroll from its USD account to the AED partner-bank account, once as JSON and
// once as a CSV file, and each program checks that the server answered 200 with a feeHash.

export const BASE_URL = process.env.BASE_URL ?? 'http://localhost:3000';
export const TOKEN = process.env.PAYROLL_TOKEN ?? '';

export const SOURCE = '7b1e0005-0000-4000-8000-000000000001';
export const PAYROLL = '7b1e0005-0000-4000-8000-000000000004';
export const BENEFICIARY = '7b1e0006-0000-4000-8000-000000000002';

export const JSON_ESTIMATE = {
  sourceAccountCurrencyId: SOURCE,
  payrollAccountCurrencyId: PAYROLL,
  amountSplitDetails: [{ beneficiaryId: BENEFICIARY, amount: '1000.00' }],
};

export const CSV_ESTIMATE = `beneficiaryId,amount,amountCurrencyType,purposeCode\r\n${BENEFICIARY},1000.00,SOURCE,SAL\r\n`;

/** Fails the program unless the call answered 200 with a body that looks like an estimate. */
export function expectEstimate(generator: string, form: string, status: number, body: unknown): void {
  const feeHash = (body as { data?: { feeHash?: unknown } } | undefined)?.data?.feeHash;
  if (status !== 200 || typeof feeHash !== 'string') {
    throw new Error(`${generator}: estimatePayrollFee (${form}) answered ${status}: ${JSON.stringify(body)}`);
  }
  console.log(`${generator}: estimatePayrollFee (${form}) 200, feeHash ${feeHash.slice(0, 8)}…`);
}
