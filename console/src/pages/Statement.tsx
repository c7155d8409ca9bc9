/** One account currency's statement, newest first, a page at a time; the whole range as CSV. */
import { unwrap } from 'payroll-fee-service';
import { api } from '../session.js';
import { transactionKindLabel } from '../labels.js';
import { More, usePaged } from '../paging.js';
import { Table } from '../table.js';
import { Amount, ErrorBox, Page, RequestLink, Time, saveCsv, useAction, useLoad } from '../ui.js';

const PAGE = 50;

export function StatementPage({ accountCurrencyId }: { accountCurrencyId: string }) {
  const page = usePaged(
    async (cursor) => {
      const query = { limit: PAGE, ...(cursor ? { cursor } : {}) };
      const answer = await api.GET('/v1/customers/account-currencies/{accountCurrencyId}/transactions', { params: { path: { accountCurrencyId }, query } });
      // Asked without Accept: text/csv, the answer is JSON; its type also admits the CSV text.
      if (typeof answer.data === 'string') throw new Error('Expected JSON, got CSV');
      return unwrap({ ...answer, data: answer.data });
    },
    [accountCurrencyId],
  );
  const accounts = useLoad(async () => unwrap(await api.GET('/v1/customers/accounts')), []);
  const currency = accounts.data?.accounts.flatMap((account) => account.currencies).find((item) => item.id === accountCurrencyId)?.currency;
  const code = currency?.currencyCode;
  const decimals = currency?.decimals;
  const download = useAction(async () => {
    const { data, error, response } = await api.GET('/v1/customers/account-currencies/{accountCurrencyId}/transactions', {
      params: { path: { accountCurrencyId } },
      headers: { Accept: 'text/csv' },
      parseAs: 'text',
    });
    if (!response.ok || typeof data !== 'string') unwrap({ data: undefined, error, response });
    saveCsv(`statement-${accountCurrencyId}.csv`, data as string);
  });
  return (
    <Page title={`Statement${code ? ` of ${code}` : ''}`}>
      <button type="button" onClick={() => void download.run()} disabled={download.busy}>
        Download the statement as CSV
      </button>
      <ErrorBox error={download.error ?? page.error} />
      {page.data && (
        <Table
          stack
          caption="Transactions, newest first"
          rows={page.data.items}
          rowKey={(item) => item.id}
          columns={[
            { header: 'When', cell: (item) => <Time value={item.createdAt} /> },
            { header: 'Kind', cell: (item) => transactionKindLabel(item.kind) },
            { header: 'Amount', cell: (item) => <Amount value={item.amount} currency={code} decimals={decimals} />, numeric: true },
            { header: 'Balance after', cell: (item) => <Amount value={item.balanceAfter} currency={code} decimals={decimals} />, numeric: true },
            {
              header: 'Payroll request',
              cell: (item) => item.payrollRequestId && <RequestLink id={item.payrollRequestId} />,
            },
          ]}
        />
      )}
      <More paged={page} label="Older transactions" />
    </Page>
  );
}
