/** The bank's books on the admin's desk: the statements, the reconciliation exceptions, and each exception's own page with its resolve action. */
import { type components, unwrap } from 'payroll-fee-service';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../session.js';
import { creditDebitLabel, exceptionKindLabel, exceptionStatusLabel, statementStatusLabel } from '../labels.js';
import { Table } from '../table.js';
import { Amount, ErrorBox, Field, Link, Page, Time, useAction, useLoad } from '../ui.js';

type BankException = components['schemas']['BankException'];

function Resolve({ exceptionId, label, changed }: { exceptionId: string; label: string; changed: () => void }) {
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
      <Field label={label}>
        <input value={note} required maxLength={1000} onInput={(event) => setNote(event.currentTarget.value)} />
      </Field>
      <button type="submit" disabled={action.busy}>
        Resolve
      </button>
      <ErrorBox error={action.error} />
    </form>
  );
}

/** One exception's own page (/console/bank/exceptions/{exceptionId}): everything the bank's books said, and the resolve action while it is open. */
export function BankExceptionPage({ exceptionId }: { exceptionId: string }) {
  const loaded = useLoad(async () => unwrap(await api.GET('/v1/admin/bank/exceptions/{exceptionId}', { params: { path: { exceptionId } } })), [exceptionId]);
  const item = loaded.data;
  return (
    <Page title={`Bank exception ${exceptionId.slice(0, 8)}`}>
      <p>
        <Link to="/bank">All statements and exceptions</Link>
      </p>
      <ErrorBox error={loaded.error} />
      {item && <ExceptionDetails item={item} />}
      {item?.status === 'OPEN' && <Resolve exceptionId={item.id} label="Resolution note" changed={loaded.reload} />}
    </Page>
  );
}

function ExceptionDetails({ item }: { item: BankException }) {
  const money = (value: string | undefined) => value !== undefined && <Amount value={value} currency={item.currencyCode} />;
  const time = (value: string | undefined) => value !== undefined && <Time value={value} />;
  const rows: [string, ComponentChildren][] = [
    ['Kind', exceptionKindLabel(item.kind)],
    ['Status', exceptionStatusLabel(item.status)],
    ['Detail', item.detail],
    ['Booked', money(item.bookedAmount)],
    ['Expected', money(item.expectedAmount)],
    ['Difference', money(item.difference)],
    ['Credit or debit', item.creditDebit && creditDebitLabel(item.creditDebit)],
    ['Booked at', time(item.bookedAt)],
    ['Raised', time(item.createdAt)],
    ['Message id', item.messageId],
    ['Statement', item.statementId],
    ['Account currency', item.accountCurrencyId],
    ['Transfer', item.transferId],
    ['EndToEndId', item.endToEndId],
    ['Bank reference', item.bankReference],
    ['Entry reference', item.entryReference],
    [
      'Resolution',
      item.resolution && (
        <>
          {item.resolution.note} (<Time value={item.resolution.resolvedAt} />,{' '}
          {item.resolution.resolvedBy === 'BANK_FILE'
            ? `the bank's message ${item.resolution.messageId ?? ''}`
            : `user ${item.resolution.resolvedByUserId ?? ''}`}
          )
        </>
      ),
    ],
  ];
  return (
    <dl>
      {rows
        .filter(([, value]) => value !== undefined && value !== false)
        .map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd {...(term === 'Status' && { 'data-testid': 'status', 'data-status': item.status })}>{value}</dd>
          </div>
        ))}
    </dl>
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
        <Table
          stack
          caption="What the bank booked that does not match what was sent"
          rows={exceptions.data.items}
          rowKey={(item) => item.id}
          columns={[
            { header: 'Kind', cell: (item) => <Link to={`/bank/exceptions/${item.id}`}>{exceptionKindLabel(item.kind)}</Link> },
            { header: 'Status', cell: (item) => exceptionStatusLabel(item.status) },
            { header: 'Booked', cell: (item) => <Amount value={item.bookedAmount} currency={item.currencyCode} />, numeric: true },
            { header: 'Expected', cell: (item) => <Amount value={item.expectedAmount} currency={item.currencyCode} />, numeric: true },
            { header: 'Detail', cell: (item) => item.detail },
            {
              header: 'Resolve',
              cell: (item) =>
                item.status === 'OPEN' && (
                  <Resolve exceptionId={item.id} label={`Resolution note for exception ${item.id.slice(0, 8)}`} changed={exceptions.reload} />
                ),
            },
          ]}
        />
      )}
      <h2>Statements</h2>
      <ErrorBox error={statements.error} />
      {statements.data && statements.data.items.length === 0 && <p>No statement received.</p>}
      {statements.data && statements.data.items.length > 0 && (
        <Table
          stack
          caption="The bank's statements (camt.053), newest first"
          rows={statements.data.items}
          rowKey={(item) => item.id}
          columns={[
            { header: 'Date', cell: (item) => item.date },
            { header: 'IBAN', cell: (item) => item.iban },
            { header: 'Opening', cell: (item) => <Amount value={item.openingBalance} currency={item.currencyCode} />, numeric: true },
            { header: 'Closing', cell: (item) => <Amount value={item.closingBalance} currency={item.currencyCode} />, numeric: true },
            { header: 'Ledger balance', cell: (item) => <Amount value={item.ledgerBalance} currency={item.currencyCode} />, numeric: true },
            { header: 'Status', cell: (item) => statementStatusLabel(item.status) },
            { header: 'Entries', cell: (item) => item.entryCount, numeric: true },
            { header: 'Exceptions', cell: (item) => item.exceptionCount, numeric: true },
          ]}
        />
      )}
    </Page>
  );
}
