/**
 * One payroll request, for its customer and for the admins: its figures, its actions, its splits
 * and transfers a page at a time (never all of a 100,000-split request at once), polled at the
 * documented interval until its status is final.
 */
import { type components, PAYROLL_POLL_INTERVAL_MS, isFinalPayrollStatus, unwrap } from 'payroll-fee-service';
import { useEffect } from 'preact/hooks';
import { api, session } from '../session.js';
import { amountCurrencyTypeLabel, payrollStatusLabel, transferStatusLabel, transferTypeLabel } from '../labels.js';
import { More, usePaged } from '../paging.js';
import { Table } from '../table.js';
import { Amount, ErrorBox, Link, Page, Time, useLoad } from '../ui.js';
import { QuoteToDecide, RequestFigures, currenciesOf } from './RequestFigures.js';
import { PaySchedule } from './PaySchedule.js';
import { RequestActions } from './RequestActions.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

const PAGE = 25;

/**
 * Each beneficiary's share in both currencies: the figure the customer entered (source or payroll
 * currency) and the other one, at the quote once there is one, at the estimate before.
 */
function Splits({ request }: { request: PayrollRequest }) {
  const requestId = request.id;
  const money = currenciesOf(request);
  const page = usePaged(
    async (cursor) =>
      unwrap(
        await api.GET('/v1/customers/payroll/requests/{requestId}/splits', {
          params: { path: { requestId }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [requestId, request.status, request.quotedFxRate],
  );
  const stage = request.quote ? 'at the quote' : 'estimate';
  const returned = page.data?.items.some((split) => split.returnedSourceCurrencyAmount !== null) ?? false;
  return (
    <section aria-label="Splits">
      <h2>Splits</h2>
      <ErrorBox error={page.error} />
      {page.data && (
        <Table
          stack
          caption={`Beneficiaries and what each receives (${stage})`}
          rows={page.data.items}
          rowKey={(split) => split.id}
          columns={[
            { header: 'Beneficiary', cell: (split) => split.beneficiarySnapshot?.displayName ?? split.beneficiaryId },
            { header: 'Entered in', cell: (split) => amountCurrencyTypeLabel(split.amountCurrencyType) },
            { header: 'Source amount', cell: (split) => money.source(split.quotedSourceCurrencyAmount ?? split.sourceCurrencyAmount), numeric: true },
            { header: 'Payroll amount', cell: (split) => money.payroll(split.quotedAmount ?? split.amount), numeric: true },
            returned && {
              header: 'Returned',
              cell: (split) => split.returnedSourceCurrencyAmount && money.source(split.returnedSourceCurrencyAmount),
              numeric: true,
            },
          ]}
        />
      )}
      <More paged={page} label="Next splits" />
    </section>
  );
}

/** Who a transfer pays: the beneficiary of a payout, the accounts of the two legs before it. */
function payee(transfer: components['schemas']['Transfer']): string {
  if (transfer.payoutInstruction) return transfer.payoutInstruction.beneficiarySnapshot.displayName;
  return transfer.transferType === 'PROCESSOR_INTERNAL_DEBIT' ? 'From your account' : 'To the payroll bank account';
}

function Transfers({ requestId, version }: { requestId: string; version: string }) {
  const page = usePaged(
    async (cursor) =>
      unwrap(
        await api.GET('/v1/customers/payroll/requests/{requestId}/transfers', {
          params: { path: { requestId }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [requestId, version],
  );
  return (
    <section aria-label="Transfers">
      <h2>Transfers</h2>
      <ErrorBox error={page.error} />
      {page.data && page.data.items.length === 0 && <p>No transfers yet.</p>}
      {page.data && page.data.items.length > 0 && (
        <Table
          stack
          caption="Money movements of this request"
          rows={page.data.items}
          rowKey={(transfer) => transfer.id}
          columns={[
            { header: 'Type', cell: (transfer) => transferTypeLabel(transfer.transferType) },
            { header: 'Beneficiary', cell: payee },
            { header: 'Status', cell: (transfer) => transferStatusLabel(transfer.status) },
            { header: 'Amount', cell: (transfer) => <Amount value={transfer.amount} currency={transfer.currencyCode} />, numeric: true },
            { header: 'Completed', cell: (transfer) => <Time value={transfer.completedAt} /> },
          ]}
        />
      )}
      <More paged={page} label="Next transfers" />
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
            <dt>Created</dt>
            <dd>
              <Time value={data.createdAt} />
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
          </dl>
          <RequestFigures request={data} />
          <PaySchedule request={data} />
          <QuoteToDecide request={data} />
          <RequestActions request={data} changed={request.reload} />
          <Splits request={data} />
          <Transfers requestId={requestId} version={data.status} />
        </>
      )}
    </Page>
  );
}
