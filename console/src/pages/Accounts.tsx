/** The customer's accounts: each account currency with its balance and what is available, and its statement. */
import { unwrap } from 'payroll-fee-service';
import { api } from '../session.js';
import { Amount, ErrorBox, Link, Page, useLoad } from '../ui.js';

export function AccountsPage() {
  const accounts = useLoad(async () => unwrap(await api.GET('/v1/customers/accounts')), []);
  return (
    <Page title="Accounts">
      <ErrorBox error={accounts.error} />
      {accounts.data && (
        <table>
          <caption>Your account currencies</caption>
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col">Provider</th>
              <th scope="col">Balance</th>
              <th scope="col">Available</th>
              <th scope="col">Statement</th>
            </tr>
          </thead>
          <tbody>
            {accounts.data.accounts.flatMap((account) =>
              account.currencies.map((currency) => (
                <tr key={currency.id}>
                  <td>{currency.currency.currencyCode}</td>
                  <td>{account.accountProvider}</td>
                  <td>
                    <Amount value={currency.balance} currency={currency.currency.currencyCode} />
                  </td>
                  <td>
                    <Amount value={currency.available} currency={currency.currency.currencyCode} />
                  </td>
                  <td>
                    <Link to={`/statements/${currency.id}`}>Statement of {currency.currency.currencyCode}</Link>
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
      <p>
        <Link to="/payroll/new">New payroll from a CSV file</Link>
      </p>
    </Page>
  );
}
