/**
 * Payroll requests: the customer's own, or the admin's queue (any status; waiting for a quote by
 * default), oldest first in the admin's queue, with each request's age.
 */
import { type components, unwrap } from 'payroll-fee-service';
import { useState } from 'preact/hooks';
import { api, session } from '../session.js';
import { PAYROLL_STATUSES, payrollStatusLabel } from '../labels.js';
import { More, usePaged } from '../paging.js';
import { Table } from '../table.js';
import { Amount, ErrorBox, Field, Link, Page, RequestLink, Time } from '../ui.js';

type Status = components['schemas']['PayrollRequestStatus'];

function age(createdAt: string): string {
  const minutes = Math.max(0, Math.floor((Date.now() - new Date(createdAt).getTime()) / 60_000));
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h`;
}

export function RequestsPage() {
  const admin = session()?.role === 'admin';
  const [status, setStatus] = useState<Status | ''>(admin ? 'PENDING' : '');
  const page = usePaged(
    async (cursor) => {
      const query = { limit: 50, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) };
      const answer = admin
        ? unwrap(await api.GET('/v1/admin/payroll/requests', { params: { query } }))
        : unwrap(await api.GET('/v1/customers/payroll/requests', { params: { query } }));
      // The admin works the queue from its oldest request.
      const items = admin ? [...answer.items].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) : answer.items;
      return { ...answer, items };
    },
    [admin, status],
  );
  return (
    <Page title={admin ? 'Payroll requests to work on' : 'Payroll requests'}>
      <Field label="Status">
        <select
          value={status}
          onChange={(event) => {
            setStatus(event.currentTarget.value as Status | '');
          }}
        >
          <option value="">Any status</option>
          {PAYROLL_STATUSES.map((value) => (
            <option key={value} value={value}>
              {payrollStatusLabel(value)}
            </option>
          ))}
        </select>
      </Field>
      <ErrorBox error={page.error} />
      {page.data && page.data.items.length === 0 && <p>No payroll request in this status.</p>}
      {page.data && page.data.items.length > 0 && (
        <Table
          stack
          caption={admin ? 'Oldest first' : 'Newest first'}
          rows={page.data.items}
          rowKey={(item) => item.id}
          columns={[
            { header: 'Request', cell: (item) => <RequestLink id={item.id} /> },
            admin && {
              header: 'Customer',
              // A server before customerName named the customer by id only.
              cell: (item) => <Link to={`/customers/${item.customerId}`}>{item.customerName ?? item.customerId.slice(0, 8)}</Link>,
            },
            { header: 'Created', cell: (item) => <Time value={item.createdAt} /> },
            { header: 'Status', cell: (item) => payrollStatusLabel(item.status) },
            { header: 'Total', cell: (item) => <Amount value={item.totalAmount} currency={item.sourceCurrencyCode} />, numeric: true },
            { header: 'Beneficiaries', cell: (item) => item.beneficiaryCount, numeric: true },
            {
              header: 'Indicative rate',
              cell: (item) => <span class="amount">{`${item.estimatedFxRate} ${item.sourceCurrencyCode}→${item.payrollCurrencyCode}`}</span>,
              numeric: true,
            },
            admin && { header: 'Age', cell: (item) => age(item.createdAt), numeric: true },
            admin && {
              header: 'Quote expires',
              // Absent from a server before quoteExpiresAt, null before a quote: nothing to show either way.
              cell: (item) => (item.quoteExpiresAt ? <Time value={item.quoteExpiresAt} /> : '—'),
            },
          ]}
        />
      )}
      <More paged={page} label="More requests" />
    </Page>
  );
}
