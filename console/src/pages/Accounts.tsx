/** The customer's accounts: each account currency with its balance and what is available, and its statement. */
import { type components, unwrap } from 'payroll-fee-service';
import { api } from '../session.js';
import { Table } from '../table.js';
import { Amount, ErrorBox, Link, Page, useLoad } from '../ui.js';

type Row = components['schemas']['AccountCurrencyBalance'] & { accountProvider: string };

export function AccountsPage() {
  const accounts = useLoad(async () => unwrap(await api.GET('/v1/customers/accounts')), []);
  const rows: Row[] =
    accounts.data?.accounts.flatMap((account) => account.currencies.map((currency) => ({ ...currency, accountProvider: account.accountProvider }))) ?? [];
  const money = (value: string, row: Row) => <Amount value={value} currency={row.currency.currencyCode} decimals={row.currency.decimals} />;
  return (
    <Page title="Accounts">
      <ErrorBox error={accounts.error} />
      {accounts.data && (
        <Table
          stack
          caption="Your account currencies"
          rows={rows}
          rowKey={(row) => row.id}
          columns={[
            { header: 'Currency', cell: (row) => row.currency.currencyCode },
            { header: 'Provider', cell: (row) => row.accountProvider },
            { header: 'Balance', cell: (row) => money(row.balance, row), numeric: true },
            { header: 'Available', cell: (row) => money(row.available, row), numeric: true },
            { header: 'Statement', cell: (row) => <Link to={`/statements/${row.id}`}>Statement of {row.currency.currencyCode}</Link> },
          ]}
        />
      )}
      <p>
        <Link to="/payroll/new">New payroll from a CSV file</Link>
      </p>
    </Page>
  );
}
