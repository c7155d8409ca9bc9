// A small program against the client @hey-api/openapi-ts generates from the bundled spec (npm run
// check:hey-api): it must compile under strict NodeNext with no change to the generated code. The
// base URL is the spec's first server's; the token is set once for every call.
import { client } from './generated/client.gen.js';
import { estimatePayoutFees, exportAccountTransactions, listAccounts, providePayrollQuote } from './generated/sdk.gen.js';
import type { PayoutFeeEstimate, PayrollRequestStatus } from './generated/types.gen.js';

client.setConfig({ auth: () => process.env.PAYROLL_TOKEN ?? '' });

const accounts = await listAccounts();
const usd = accounts.data?.data.accounts.find((account) => account.currencies.some((currency) => currency.currency.currencyCode === 'USD'));
if (usd) {
  const estimate = await estimatePayoutFees({
    path: { accountId: usd.id },
    query: { amount: '1500.00', currency: 'USD', beneficiaryId: '7b1e0006-0000-4000-8000-000000000002' },
  });
  const figures: PayoutFeeEstimate | undefined = estimate.data?.data;
  console.log(figures?.totalAmount, figures?.feeHash);
}

// The statement as CSV, typed as text: the header row.
const csv = await exportAccountTransactions({
  path: { accountCurrencyId: '7b1e0005-0000-4000-8000-000000000001' },
  query: { from: '2026-11-01T00:00:00.000Z' },
});
const header: string | undefined = csv.data?.split('\r\n')[0];
console.log(header);

// A relative quote expiry, as the admin sends it.
const quoted = await providePayrollQuote({
  path: { requestId: '7b1e0007-0000-4000-8000-000000000001' },
  body: { exchangeRate: '3.6530', expiresInSeconds: 1800 },
});
const status: PayrollRequestStatus | undefined = quoted.data?.data.status;
console.log(status);
