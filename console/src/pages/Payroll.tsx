/**
 * A payroll from a CSV file: choose the accounts and the file, see the estimate (every fee, the
 * feeHash's expiry) or every problem by row and column as the API lists them, then create the request.
 */
import { type components, unwrap } from 'payroll-fee-service';
import { useState } from 'preact/hooks';
import { api } from '../session.js';
import { formatDecimal } from '../money.js';
import { navigate } from '../router.js';
import { Amount, ErrorBox, Field, Link, Page, Time, saveCsv, useAction, useLoad } from '../ui.js';

type Estimate = components['schemas']['PayrollFeeEstimate'];

const csvInit = (csv: string, query: Record<string, string>) => ({
  body: csv as never,
  params: { query: query as never },
  headers: { 'Content-Type': 'text/csv' },
  // The body is the file's text as it is (openapi-fetch would JSON-encode it).
  bodySerializer: (text: unknown) => String(text),
});

export function PayrollPage() {
  const accounts = useLoad(async () => unwrap(await api.GET('/v1/customers/accounts')), []);
  const [source, setSource] = useState('');
  const [payroll, setPayroll] = useState('');
  const [csv, setCsv] = useState<string | null>(null);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const sources = accounts.data?.accounts.flatMap((account) => account.currencies) ?? [];
  const payrollOptions = accounts.data?.payrollAccountCurrencies ?? [];
  const sourceId = source || sources[0]?.id || '';
  const payrollId = payroll || payrollOptions[0]?.id || '';
  const sourceCode = sources.find((currency) => currency.id === sourceId)?.currency.currencyCode;
  const payrollCode = payrollOptions.find((currency) => currency.id === payrollId)?.currency.currencyCode;
  const query = { sourceAccountCurrencyId: sourceId, payrollAccountCurrencyId: payrollId };

  const estimating = useAction(async () => {
    setEstimate(null);
    if (csv === null) throw new Error('Choose a CSV file first');
    setEstimate(unwrap(await api.POST('/v1/customers/payroll/estimate', csvInit(csv, query))));
  });
  const creating = useAction(async () => {
    if (csv === null || !estimate) return;
    const created = unwrap(
      await api.POST('/v1/customers/payroll/requests', { ...csvInit(csv, { ...query, feeHash: estimate.feeHash }), idempotencyKey: crypto.randomUUID() }),
    );
    navigate(`/requests/${created.id}`);
  });

  const template = useAction(async () => {
    // The file is served to a signed-in customer only: fetched with the token, then saved.
    const { data, error, response } = await api.GET('/v1/customers/payroll/template.csv', { parseAs: 'text' });
    if (!response.ok || typeof data !== 'string') unwrap({ data: undefined, error, response });
    saveCsv('payroll-template.csv', data as string);
  });

  const onFile = async (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    setEstimate(null);
    setCsv(file ? await file.text() : null);
  };

  return (
    <Page title="New payroll from a CSV file">
      <ErrorBox error={accounts.error} />
      <p>
        One row per beneficiary: <code>beneficiaryReference</code> or <code>beneficiaryId</code>, <code>amount</code>, <code>amountCurrencyType</code> (SOURCE
        or PAYROLL), <code>purposeCode</code>.
      </p>
      <p>
        <button type="button" onClick={() => void template.run()} disabled={template.busy}>
          Download the CSV template
        </button>{' '}
        <span class="muted">the header row and one example row to fill in</span>
      </p>
      <ErrorBox error={template.error} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void estimating.run();
        }}
      >
        <Field label="Pay from (source account currency)">
          <select value={sourceId} onChange={(event) => setSource(event.currentTarget.value)}>
            {sources.map((currency) => (
              <option key={currency.id} value={currency.id}>
                {currency.currency.currencyCode} — available {formatDecimal(currency.available, currency.currency.decimals)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Pay in (payroll account currency)">
          <select value={payrollId} onChange={(event) => setPayroll(event.currentTarget.value)}>
            {payrollOptions.map((currency) => (
              <option key={currency.id} value={currency.id}>
                {currency.currency.currencyCode} ({currency.accountProvider})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Payroll CSV file">
          <input type="file" accept=".csv,text/csv" onChange={(event) => void onFile(event)} />
        </Field>
        <button type="submit" disabled={estimating.busy || csv === null}>
          Estimate the fees
        </button>
      </form>
      <ErrorBox error={estimating.error} />
      {estimate && (
        <section aria-label="Estimate">
          <h2>Estimate</h2>
          <dl>
            <dt>Total to debit (source amount and fees)</dt>
            <dd>
              <Amount value={estimate.totalAmount} currency={sourceCode} />
            </dd>
            <dt>Source amount</dt>
            <dd>
              <Amount value={estimate.sourceCurrencyAmount} currency={sourceCode} />
            </dd>
            <dt>Fees</dt>
            <dd>
              <Amount value={estimate.feeAmount} currency={sourceCode} />
            </dd>
            <dt>Beneficiaries receive (estimate)</dt>
            <dd>
              <Amount value={estimate.estimatedReceivedAmount} currency={payrollCode} />
            </dd>
            <dt>This estimate expires</dt>
            <dd>
              <Time value={estimate.expiresAt} />
            </dd>
          </dl>
          <button type="button" disabled={creating.busy} onClick={() => void creating.run()}>
            Create the payroll request
          </button>
          <ErrorBox error={creating.error} />
        </section>
      )}
      <p>
        <Link to="/requests">Your payroll requests</Link>
      </p>
    </Page>
  );
}
