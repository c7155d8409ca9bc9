/** One account currency's statement, newest first, a page at a time; the whole range as CSV. */
import { unwrap } from 'payroll-fee-service';
import { useState } from 'preact/hooks';
import { api } from '../session.js';
import { Amount, ErrorBox, Link, Page, Time, useAction, useLoad } from '../ui.js';

const PAGE = 50;

export function StatementPage({ accountCurrencyId }: { accountCurrencyId: string }) {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const page = useLoad(async () => {
    const query = { limit: PAGE, ...(cursor ? { cursor } : {}) };
    const answer = await api.GET('/v1/customers/account-currencies/{accountCurrencyId}/transactions', { params: { path: { accountCurrencyId }, query } });
    // Asked without Accept: text/csv, the answer is JSON; its type also admits the CSV text.
    if (typeof answer.data === 'string') throw new Error('Expected JSON, got CSV');
    return unwrap({ ...answer, data: answer.data });
  }, [accountCurrencyId, cursor]);
  const accounts = useLoad(async () => unwrap(await api.GET('/v1/customers/accounts')), []);
  const currency = accounts.data?.accounts.flatMap((account) => account.currencies).find((item) => item.id === accountCurrencyId)?.currency.currencyCode;
  const download = useAction(async () => {
    const { data, error, response } = await api.GET('/v1/customers/account-currencies/{accountCurrencyId}/transactions', {
      params: { path: { accountCurrencyId } },
      headers: { Accept: 'text/csv' },
      parseAs: 'text',
    });
    if (!response.ok || typeof data !== 'string') unwrap({ data: undefined, error, response });
    const url = URL.createObjectURL(new Blob([data as string], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `statement-${accountCurrencyId}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  });
  return (
    <Page title={`Statement${currency ? ` of ${currency}` : ''}`}>
      <button type="button" onClick={() => void download.run()} disabled={download.busy}>
        Download the statement as CSV
      </button>
      <ErrorBox error={download.error ?? page.error} />
      {page.data && (
        <table>
          <caption>Transactions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col">Amount</th>
              <th scope="col">Balance after</th>
              <th scope="col">Payroll request</th>
            </tr>
          </thead>
          <tbody>
            {page.data.items.map((item) => (
              <tr key={item.id}>
                <td>
                  <Time value={item.createdAt} />
                </td>
                <td>{item.kind}</td>
                <td>
                  <Amount value={item.amount} currency={currency} />
                </td>
                <td>
                  <Amount value={item.balanceAfter} currency={currency} />
                </td>
                <td>{item.payrollRequestId ? <Link to={`/requests/${item.payrollRequestId}`}>Request {item.payrollRequestId.slice(0, 8)}</Link> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page.data?.nextCursor && (
        <button type="button" onClick={() => setCursor(page.data?.nextCursor ?? undefined)}>
          Older transactions
        </button>
      )}
    </Page>
  );
}
