/** The admin's desk beyond the queue: a customer's settings, the exchange rates, the bank's statements and exceptions. */
import { type components, unwrap } from 'payroll-fee-service';
import { useState } from 'preact/hooks';
import { api } from '../session.js';
import { Amount, ErrorBox, Field, Page, Time, useAction, useLoad } from '../ui.js';

type Settings = components['schemas']['CustomerSettings'];

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

function RateRow({ rate, changed }: { rate: components['schemas']['ExchangeRateStatus']; changed: () => void }) {
  const [value, setValue] = useState('');
  const pair = `${rate.fromCurrencyCode} to ${rate.toCurrencyCode}`;
  const action = useAction(async () => {
    const path = { fromCurrencyCode: rate.fromCurrencyCode, toCurrencyCode: rate.toCurrencyCode };
    unwrap(await api.PUT('/v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', { params: { path }, body: { rate: value.trim() } }));
    setValue('');
    changed();
  });
  return (
    <tr>
      <td>{pair}</td>
      <td>{rate.rate ?? '—'}</td>
      <td>{rate.source}</td>
      <td>
        <Time value={rate.asOf} />
      </td>
      <td>{rate.usable ? 'yes' : 'no'}</td>
      <td>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void action.run();
          }}
        >
          <input aria-label={`New rate ${pair}`} inputMode="decimal" value={value} required onInput={(event) => setValue(event.currentTarget.value)} />
          <button type="submit" aria-label={`Set the rate ${pair}`} disabled={action.busy}>
            Set
          </button>
          <ErrorBox error={action.error} />
        </form>
      </td>
    </tr>
  );
}

export function RatesPage() {
  const rates = useLoad(async () => unwrap(await api.GET('/v1/admin/rates')), []);
  return (
    <Page title="Exchange rates">
      <ErrorBox error={rates.error} />
      {rates.data && (
        <table>
          <caption>Current rates, one unit of the first currency in the second</caption>
          <thead>
            <tr>
              <th scope="col">Pair</th>
              <th scope="col">Rate</th>
              <th scope="col">Source</th>
              <th scope="col">As of</th>
              <th scope="col">Usable</th>
              <th scope="col">Set a manual rate</th>
            </tr>
          </thead>
          <tbody>
            {rates.data.items.map((rate) => (
              <RateRow key={`${rate.fromCurrencyCode}${rate.toCurrencyCode}`} rate={rate} changed={rates.reload} />
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

function Resolve({ exceptionId, changed }: { exceptionId: string; changed: () => void }) {
  const [note, setNote] = useState('');
  const action = useAction(async () => {
    unwrap(await api.POST('/v1/admin/bank/exceptions/{exceptionId}/resolve', { params: { path: { exceptionId } }, body: { note } }));
    changed();
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void action.run();
      }}
    >
      <input
        aria-label={`Resolution note for exception ${exceptionId.slice(0, 8)}`}
        value={note}
        required
        onInput={(event) => setNote(event.currentTarget.value)}
      />
      <button type="submit" disabled={action.busy}>
        Resolve
      </button>
      <ErrorBox error={action.error} />
    </form>
  );
}

export function BankPage() {
  const statements = useLoad(async () => unwrap(await api.GET('/v1/admin/bank/statements', { params: { query: { limit: 20 } } })), []);
  const exceptions = useLoad(async () => unwrap(await api.GET('/v1/admin/bank/exceptions', { params: { query: { limit: 50 } } })), []);
  return (
    <Page title="Bank statements and exceptions">
      <h2>Reconciliation exceptions</h2>
      <ErrorBox error={exceptions.error} />
      {exceptions.data && exceptions.data.items.length === 0 && <p>No exception.</p>}
      {exceptions.data && exceptions.data.items.length > 0 && (
        <table>
          <caption>What the bank booked that does not match what was sent</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
              <th scope="col">Booked</th>
              <th scope="col">Expected</th>
              <th scope="col">Detail</th>
              <th scope="col">Resolve</th>
            </tr>
          </thead>
          <tbody>
            {exceptions.data.items.map((item) => (
              <tr key={item.id}>
                <td>{item.kind}</td>
                <td>{item.status}</td>
                <td>
                  <Amount value={item.bookedAmount} currency={item.currencyCode} />
                </td>
                <td>
                  <Amount value={item.expectedAmount} currency={item.currencyCode} />
                </td>
                <td>{item.detail}</td>
                <td>{item.status === 'OPEN' ? <Resolve exceptionId={item.id} changed={exceptions.reload} /> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Statements</h2>
      <ErrorBox error={statements.error} />
      {statements.data && statements.data.items.length === 0 && <p>No statement received.</p>}
      {statements.data && statements.data.items.length > 0 && (
        <table>
          <caption>The bank's statements (camt.053), newest first</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">IBAN</th>
              <th scope="col">Opening</th>
              <th scope="col">Closing</th>
              <th scope="col">Entries</th>
              <th scope="col">Exceptions</th>
            </tr>
          </thead>
          <tbody>
            {statements.data.items.map((item) => (
              <tr key={item.id}>
                <td>{item.date}</td>
                <td>{item.iban}</td>
                <td>
                  <Amount value={item.openingBalance} currency={item.currencyCode} />
                </td>
                <td>
                  <Amount value={item.closingBalance} currency={item.currencyCode} />
                </td>
                <td>{item.entryCount}</td>
                <td>{item.exceptionCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
