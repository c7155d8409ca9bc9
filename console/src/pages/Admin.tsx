/** The admin's desk beyond the queue: a customer's settings and the exchange rates (the bank: Bank.tsx). */
import { type components, unwrap } from 'payroll-fee-service';
import { useState } from 'preact/hooks';
import { api } from '../session.js';
import { rateSourceLabel } from '../labels.js';
import { Table } from '../table.js';
import { ErrorBox, Field, Page, Time, useAction, useLoad } from '../ui.js';

type Settings = components['schemas']['CustomerSettings'];
type Rate = components['schemas']['ExchangeRateStatus'];

const pairOf = (rate: Rate) => `${rate.fromCurrencyCode} to ${rate.toCurrencyCode}`;

/** A customer's settings: there is no read of them, so the form sets them and shows what the answer says. */
export function CustomerSettingsPage({ customerId: initial }: { customerId?: string | undefined }) {
  const [customerId, setCustomerId] = useState(initial ?? '');
  const [settings, setSettings] = useState<Settings | null>(null);
  const [approval, setApproval] = useState(false);
  const action = useAction(async () => {
    const path = { customerId: customerId.trim() };
    setSettings(unwrap(await api.PATCH('/v1/admin/customers/{customerId}/settings', { params: { path }, body: { requiresPayrollApproval: approval } })));
  });
  return (
    <Page title="Customer settings">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void action.run();
        }}
      >
        <Field label="Customer id" hint="The customer of a payroll request is on its page">
          <input value={customerId} required onInput={(event) => setCustomerId(event.currentTarget.value)} />
        </Field>
        <label class="check">
          <input type="checkbox" checked={approval} onChange={(event) => setApproval(event.currentTarget.checked)} /> Payroll requests need a second person's
          approval (four-eyes)
        </label>
        <button type="submit" disabled={action.busy}>
          Save the settings
        </button>
      </form>
      <ErrorBox error={action.error} />
      {settings && (
        <p role="status">
          Saved: four-eyes approval {settings.requiresPayrollApproval ? 'on' : 'off'}; approvers:{' '}
          {settings.approvers.map((user) => `${user.firstName} ${user.lastName}`).join(', ') || 'none'}.
        </p>
      )}
    </Page>
  );
}

function SetRate({ rate, changed }: { rate: Rate; changed: () => void }) {
  const [value, setValue] = useState('');
  const pair = pairOf(rate);
  const action = useAction(async () => {
    const path = { fromCurrencyCode: rate.fromCurrencyCode, toCurrencyCode: rate.toCurrencyCode };
    unwrap(await api.PUT('/v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', { params: { path }, body: { rate: value.trim() } }));
    setValue('');
    changed();
  });
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run();
      }}
    >
      <input aria-label={`New rate ${pair}`} inputMode="decimal" size={10} value={value} required onInput={(event) => setValue(event.currentTarget.value)} />
      <button type="submit" aria-label={`Set the rate ${pair}`} disabled={action.busy}>
        Set
      </button>
      <ErrorBox error={action.error} />
    </form>
  );
}

export function RatesPage() {
  const rates = useLoad(async () => unwrap(await api.GET('/v1/admin/rates')), []);
  return (
    <Page title="Exchange rates">
      <ErrorBox error={rates.error} />
      {rates.data && (
        <Table
          stack
          caption="Current rates, one unit of the first currency in the second"
          rows={rates.data.items}
          rowKey={pairOf}
          columns={[
            { header: 'Pair', cell: pairOf },
            { header: 'Rate', cell: (rate) => <span class="amount">{rate.rate ?? '—'}</span>, numeric: true },
            { header: 'Source', cell: (rate) => rateSourceLabel(rate.source) },
            { header: 'As of', cell: (rate) => <Time value={rate.asOf} /> },
            { header: 'Usable', cell: (rate) => (rate.usable ? 'yes' : 'no') },
            { header: 'Set a manual rate', cell: (rate) => <SetRate rate={rate} changed={rates.reload} /> },
          ]}
        />
      )}
    </Page>
  );
}
