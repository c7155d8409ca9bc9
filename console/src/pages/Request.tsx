/**
 * One payroll request, for its customer and for the admins: its figures, its actions, its splits
 * and transfers a page at a time (never all of a 100,000-split request at once), polled at the
 * documented interval until its status is final.
 */
import { PAYROLL_POLL_INTERVAL_MS, isFinalPayrollStatus, unwrap } from 'payroll-fee-service';
import { useEffect, useState } from 'preact/hooks';
import { api, session } from '../session.js';
import { payrollStatusLabel, transferStatusLabel, transferTypeLabel } from '../labels.js';
import { Table } from '../table.js';
import { Amount, ErrorBox, Link, Page, Time, useLoad } from '../ui.js';
import { RequestActions } from './RequestActions.js';

const PAGE = 25;

function Splits({ requestId, currency }: { requestId: string; currency: string }) {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const page = useLoad(
    async () =>
      unwrap(
        await api.GET('/v1/customers/payroll/requests/{requestId}/splits', {
          params: { path: { requestId }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [requestId, cursor],
  );
  return (
    <section aria-label="Splits">
      <h2>Splits</h2>
      <ErrorBox error={page.error} />
      {page.data && (
        <Table
          caption="Beneficiaries and what each receives"
          rows={page.data.items}
          rowKey={(split) => split.id}
          columns={[
            { header: 'Beneficiary', cell: (split) => split.beneficiarySnapshot?.displayName ?? split.beneficiaryId },
            { header: 'Amount', cell: (split) => <Amount value={split.amount} currency={currency} />, numeric: true },
            { header: 'Quoted amount', cell: (split) => <Amount value={split.quotedAmount} currency={currency} />, numeric: true },
          ]}
        />
      )}
      {page.data?.nextCursor && (
        <button type="button" onClick={() => setCursor(page.data?.nextCursor ?? undefined)}>
          Next splits
        </button>
      )}
    </section>
  );
}

function Transfers({ requestId, version }: { requestId: string; version: string }) {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const page = useLoad(
    async () =>
      unwrap(
        await api.GET('/v1/customers/payroll/requests/{requestId}/transfers', {
          params: { path: { requestId }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [requestId, cursor, version],
  );
  return (
    <section aria-label="Transfers">
      <h2>Transfers</h2>
      <ErrorBox error={page.error} />
      {page.data && page.data.items.length === 0 && <p>No transfers yet.</p>}
      {page.data && page.data.items.length > 0 && (
        <Table
          caption="Money movements of this request"
          rows={page.data.items}
          rowKey={(transfer) => transfer.id}
          columns={[
            { header: 'Type', cell: (transfer) => transferTypeLabel(transfer.transferType) },
            { header: 'Status', cell: (transfer) => transferStatusLabel(transfer.status) },
            { header: 'Amount', cell: (transfer) => <Amount value={transfer.amount} currency={transfer.currencyCode} />, numeric: true },
            { header: 'Completed', cell: (transfer) => <Time value={transfer.completedAt} /> },
          ]}
        />
      )}
      {page.data?.nextCursor && (
        <button type="button" onClick={() => setCursor(page.data?.nextCursor ?? undefined)}>
          Next transfers
        </button>
      )}
    </section>
  );
}

export function RequestPage({ requestId }: { requestId: string }) {
  const request = useLoad(async () => unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } })), [requestId]);
  const status = request.data?.status;
  useEffect(() => {
    if (!status || isFinalPayrollStatus(status)) return;
    const timer = setInterval(request.reload, PAYROLL_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [status, request.reload]);
  const data = request.data;
  const source = data?.sourceAccountCurrency.currency.currencyCode;
  const payroll = data?.payrollAccountCurrency.currency.currencyCode;
  return (
    <Page title="Payroll request">
      <ErrorBox error={request.error} />
      {data && (
        <>
          <p>
            Status:{' '}
            <strong data-testid="status" data-status={data.status}>
              {payrollStatusLabel(data.status)}
            </strong>{' '}
            {!isFinalPayrollStatus(data.status) && (
              <button type="button" onClick={request.reload}>
                Refresh now
              </button>
            )}
          </p>
          {!isFinalPayrollStatus(data.status) && <p class="muted">Refreshed every {PAYROLL_POLL_INTERVAL_MS / 1000} s until the status is final.</p>}
          <dl>
            <dt>Request</dt>
            <dd>{data.id}</dd>
            <dt>Customer</dt>
            <dd>
              {session()?.role === 'admin' ? (
                <Link to={`/customers/${data.customer.id}`}>{data.customer.company.legalName}</Link>
              ) : (
                data.customer.company.legalName
              )}
            </dd>
            <dt>Total debited</dt>
            <dd>
              <Amount value={data.totalAmount} currency={source} />
            </dd>
            <dt>Estimated rate</dt>
            <dd>{data.estimatedFxRate}</dd>
            <dt>Beneficiaries receive (estimate)</dt>
            <dd>
              <Amount value={data.estimatedReceivedAmount} currency={payroll} />
            </dd>
            <dt>Quoted rate</dt>
            <dd>{data.quotedFxRate ?? '—'}</dd>
            <dt>Quote expires</dt>
            <dd>
              <Time value={data.quoteExpiresAt} />
            </dd>
            {data.failureReason && (
              <>
                <dt>Failure reason</dt>
                <dd>{data.failureReason}</dd>
              </>
            )}
            {data.cancellationReason && (
              <>
                <dt>Cancellation reason</dt>
                <dd>{data.cancellationReason}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>
              <Time value={data.createdAt} />
            </dd>
          </dl>
          <RequestActions request={data} changed={request.reload} />
          <Splits requestId={requestId} currency={payroll ?? ''} />
          <Transfers requestId={requestId} version={data.status} />
        </>
      )}
    </Page>
  );
}
