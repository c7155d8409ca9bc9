/** The customer's payroll templates and their upcoming runs: the monthly pay calendar. */
import { type components, unwrap } from 'payroll-fee-service';
import { api } from '../session.js';
import { Table } from '../table.js';
import { ErrorBox, Link, Page, Time, useLoad } from '../ui.js';

type PayrollTemplate = components['schemas']['PayrollTemplate'];

const ruleText = (rule: PayrollTemplate['payDateRule']): string =>
  rule.kind === 'LAST_BUSINESS_DAY' ? 'Last business day of the month' : `Day ${rule.dayOfMonth} of the month`;

export function TemplatesPage() {
  const templates = useLoad(async () => unwrap(await api.GET('/v1/customers/payroll/templates')), []);
  return (
    <Page title="Pay calendar">
      <p class="muted">
        Each template's next pay date, on the partner bank's calendar: its draft request is made on the draft day and waits for another approver's approval
        before anything is paid.
      </p>
      <ErrorBox error={templates.error} />
      {templates.data?.items.length === 0 && <p>No payroll templates yet: create one with createPayrollTemplate in the API.</p>}
      {templates.data && templates.data.items.length > 0 && (
        <Table
          stack
          caption="Upcoming payroll runs"
          rows={templates.data.items}
          rowKey={(row) => row.id}
          columns={[
            { header: 'Template', cell: (row) => row.name },
            { header: 'Pay date rule', cell: (row) => ruleText(row.payDateRule) },
            { header: 'Next pay date', cell: (row) => row.nextRun.payDate },
            { header: 'Draft made', cell: (row) => <Time value={row.nextRun.draftAt} /> },
            { header: 'Approve by', cell: (row) => <Time value={row.nextRun.approveBy} /> },
            { header: 'Problem', cell: (row) => row.nextRun.problem ?? '—' },
            {
              header: 'Last draft',
              cell: (row) =>
                row.lastRun?.payrollRequestId ? <Link to={`/requests/${row.lastRun.payrollRequestId}`}>Draft for {row.lastRun.payDate}</Link> : '—',
            },
          ]}
        />
      )}
    </Page>
  );
}
