// A payroll run from start to finish, through the published client only (the package's main export,
// resolved through package.json "exports": run `npm run build:client` first; scripts/run-example.sh does).
//
//   estimate → create (Idempotency-Key) → [admin] quote → accept → poll; [admin] record the FX
//   exchange once the funds reached the payroll bank → poll until a final status.
//
// BASE_URL=http://localhost:3000 \
// CUSTOMER_TOKEN=$(npm run -s token -- --user 7b1e0003-0000-4000-8000-000000000001) \
// ADMIN_TOKEN=$(npm run -s token -- --user 7b1e0003-0000-4000-8000-000000000003) \
// npx tsx examples/payroll.ts
//
// The ids are the demo world's (worlds/demo.json). In production the quote and the FX record are made
// by the platform's operators, not by the customer's program: without ADMIN_TOKEN the script stops
// after creating the request. POLL_INTERVAL_MS defaults to the documented 30 s.
import { randomUUID } from 'node:crypto';
import { PAYROLL_POLL_INTERVAL_MS, PayrollApiError, type PayrollRequestStatus, createPayrollClient, isFinalPayrollStatus, unwrap } from 'payroll-fee-service';

const demo = {
  usdAccountCurrency: '7b1e0005-0000-4000-8000-000000000001',
  partnerBankAed: '7b1e0005-0000-4000-8000-000000000004',
  beneficiaries: ['7b1e0006-0000-4000-8000-000000000001', '7b1e0006-0000-4000-8000-000000000002'],
};

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';
const customerToken = process.env.CUSTOMER_TOKEN;
const adminToken = process.env.ADMIN_TOKEN;
const pollIntervalMs = Number(process.env.POLL_INTERVAL_MS ?? PAYROLL_POLL_INTERVAL_MS);
const deadline = Date.now() + Number(process.env.TIMEOUT_MS ?? 30 * 60_000);
if (!customerToken) {
  console.error('CUSTOMER_TOKEN is required: npm run -s token -- --user <customer user id>');
  process.exit(2);
}

const api = createPayrollClient({ baseUrl, token: customerToken });
const admin = adminToken ? createPayrollClient({ baseUrl, token: adminToken }) : undefined;
const log = (step: string, text: string) => console.log(`${new Date().toISOString()}  ${step.padEnd(9)} ${text}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  // 1. Estimate: one amount in the source currency (USD), one in the payroll currency (AED).
  const entries = [
    { beneficiaryId: demo.beneficiaries[0]!, amount: '1000.00' },
    { beneficiaryId: demo.beneficiaries[1]!, amount: '2500.00', amountCurrencyType: 'PAYROLL' as const },
  ];
  const accounts = { sourceAccountCurrencyId: demo.usdAccountCurrency, payrollAccountCurrencyId: demo.partnerBankAed };
  const estimate = unwrap(await api.POST('/v1/customers/payroll/estimate', { body: { ...accounts, amountSplitDetails: entries } }));
  log(
    'estimate',
    `total ${estimate.totalAmount} (fees ${estimate.feeAmount}), about ${estimate.estimatedReceivedAmount} received; feeHash valid until ${estimate.expiresAt}`,
  );

  // 2. Create with the feeHash: the same accounts and entries, plus a purpose code each. The
  //    Idempotency-Key makes a retry of this very call safe (it would replay the first answer).
  const created = unwrap(
    await api.POST('/v1/customers/payroll/requests', {
      body: { feeHash: estimate.feeHash, ...accounts, amountSplitDetails: entries.map((entry) => ({ ...entry, purposeCode: 'SAL' as const })) },
      idempotencyKey: randomUUID(),
    }),
  );
  log('create', `request ${created.id}: ${created.status}, ${created.totalAmount} ${created.sourceAccountCurrency.currency.currencyCode} debited`);
  if (!admin) {
    log('stop', 'no ADMIN_TOKEN: the request waits for an operator to quote it');
    return 0;
  }

  // 3. An operator quotes a rate, valid for an hour.
  const rate = '3.6530';
  const quoted = unwrap(
    await admin.POST('/v1/admin/payroll/requests/{requestId}/quote', {
      params: { path: { requestId: created.id } },
      body: { exchangeRate: rate, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      idempotencyKey: randomUUID(),
    }),
  );
  log('quote', `${quoted.status} at ${quoted.quotedFxRate} until ${quoted.quoteExpiresAt}`);

  // 4. The customer accepts before the quote expires.
  const accepted = unwrap(
    await api.POST('/v1/customers/payroll/requests/{requestId}/accept', { params: { path: { requestId: created.id } }, idempotencyKey: randomUUID() }),
  );
  log('accept', accepted.status);

  // 5. Poll until final; once the source debit and the move to the payroll bank have completed, the
  //    operator records the FX exchange actually made, which starts one payout per beneficiary.
  let last: PayrollRequestStatus | undefined;
  let fxRecorded = false;
  for (;;) {
    const request = unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: created.id } } }));
    const transfers = request.transfers.map((t) => `${t.transferType}=${t.status}`).join(', ') || 'no transfers yet';
    if (request.status !== last) log('status', `${request.status} (${transfers})`);
    last = request.status;
    if (isFinalPayrollStatus(request.status)) {
      for (const t of request.transfers.filter((t) => t.transferType === 'BANK_TO_BENEFICIARY')) {
        log('payout', `${t.amount} ${t.currencyCode} ${t.status}${t.failureReason ? `: ${t.failureReason}` : ''}`);
      }
      log('done', `final status ${request.status}`);
      return request.status === 'COMPLETED' || request.status === 'PARTIALLY_COMPLETED' ? 0 : 1;
    }
    const fundsAtBank = ['PROCESSOR_INTERNAL_DEBIT', 'PROCESSOR_TO_BANK'].every((type) =>
      request.transfers.some((t) => t.transferType === type && t.status === 'COMPLETED'),
    );
    if (request.status === 'EXECUTING' && fundsAtBank && !fxRecorded) {
      const recorded = unwrap(
        await admin.POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', {
          params: { path: { requestId: created.id } },
          body: { exchangeRate: rate },
          idempotencyKey: randomUUID(),
        }),
      );
      fxRecorded = true;
      log('fx', `recorded at ${rate}: ${recorded.fxExchange?.fromAmount} → ${recorded.fxExchange?.toAmount}; ${recorded.status}`);
      continue;
    }
    if (Date.now() > deadline) {
      log('timeout', `still ${request.status}`);
      return 1;
    }
    await sleep(pollIntervalMs);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof PayrollApiError) {
      console.error(`API error ${error.status} ${error.code}: ${error.message} (request id ${error.requestId})`);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
