/** The customer's beneficiaries: search, create, and deactivate (its page). */
import { type components, unwrap } from 'payroll-fee-service';
import { useState } from 'preact/hooks';
import { api } from '../session.js';
import { navigate } from '../router.js';
import { More, usePaged } from '../paging.js';
import { Table } from '../table.js';
import { ConfirmStep, ErrorBox, Field, Link, Page, Time, useAction, useLoad } from '../ui.js';

type CreateBeneficiary = components['schemas']['CreateBeneficiaryRequest'];

function CreateForm({ created }: { created: () => void }) {
  const [form, setForm] = useState({ firstName: '', lastName: '', nationality: '', bankName: '', iban: '', reference: '' });
  const set = (name: keyof typeof form) => (event: Event) => setForm({ ...form, [name]: (event.currentTarget as HTMLInputElement).value });
  const action = useAction(async () => {
    const body: CreateBeneficiary = {
      type: 'INDIVIDUAL',
      firstName: form.firstName,
      lastName: form.lastName,
      nationality: form.nationality,
      bankName: form.bankName,
      iban: form.iban.replace(/\s/g, ''),
    };
    if (form.reference) body.reference = form.reference;
    unwrap(await api.POST('/v1/customers/beneficiaries', { body, idempotencyKey: crypto.randomUUID() }));
    setForm({ firstName: '', lastName: '', nationality: '', bankName: '', iban: '', reference: '' });
    created();
  });
  return (
    <form
      aria-label="New beneficiary"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run();
      }}
    >
      <h2>New beneficiary (an individual paid by IBAN)</h2>
      <Field label="First name">
        <input value={form.firstName} required onInput={set('firstName')} />
      </Field>
      <Field label="Last name">
        <input value={form.lastName} required onInput={set('lastName')} />
      </Field>
      <Field label="Nationality" hint="Two letters, e.g. AE">
        <input value={form.nationality} required maxLength={2} onInput={set('nationality')} />
      </Field>
      <Field label="Bank name">
        <input value={form.bankName} required onInput={set('bankName')} />
      </Field>
      <Field label="IBAN">
        <input value={form.iban} required onInput={set('iban')} />
      </Field>
      <Field label="Reference" hint="Optional: the CSV file's beneficiaryReference">
        <input value={form.reference} onInput={set('reference')} />
      </Field>
      <button type="submit" disabled={action.busy}>
        Create the beneficiary
      </button>
      <ErrorBox error={action.error} />
    </form>
  );
}

export function BeneficiariesPage() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const page = usePaged(
    async (cursor) =>
      unwrap(
        await api.GET('/v1/customers/beneficiaries', { params: { query: { limit: 50, ...(search ? { q: search } : {}), ...(cursor ? { cursor } : {}) } } }),
      ),
    [search],
  );
  return (
    <Page title="Beneficiaries">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(q.trim());
        }}
      >
        <Field label="Search by name or reference">
          <input type="search" value={q} onInput={(event) => setQ(event.currentTarget.value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={page.error} />
      {page.data && (
        <Table
          caption="Beneficiaries (bank details masked)"
          rows={page.data.items}
          rowKey={(beneficiary) => beneficiary.id}
          columns={[
            { header: 'Name', cell: (beneficiary) => <Link to={`/beneficiaries/${beneficiary.id}`}>{beneficiary.displayName}</Link> },
            { header: 'Reference', cell: (beneficiary) => beneficiary.reference ?? '' },
            { header: 'Active', cell: (beneficiary) => (beneficiary.active ? 'yes' : 'no') },
            { header: 'Created', cell: (beneficiary) => <Time value={beneficiary.createdAt} /> },
          ]}
        />
      )}
      <More paged={page} label="More beneficiaries" />
      <CreateForm created={page.reload} />
    </Page>
  );
}

export function BeneficiaryPage({ beneficiaryId }: { beneficiaryId: string }) {
  const beneficiary = useLoad(
    async () => unwrap(await api.GET('/v1/customers/beneficiaries/{beneficiaryId}', { params: { path: { beneficiaryId } } })),
    [beneficiaryId],
  );
  const [confirming, setConfirming] = useState(false);
  const deactivate = useAction(async () => {
    unwrap(await api.PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { params: { path: { beneficiaryId } }, body: { active: false } }));
    beneficiary.reload();
  });
  const data = beneficiary.data;
  return (
    <Page title={data ? data.displayName : 'Beneficiary'}>
      <ErrorBox error={beneficiary.error} />
      {data && (
        <dl>
          <dt>Type</dt>
          <dd>{data.type === 'BUSINESS' ? 'Business' : 'Individual'}</dd>
          <dt>Bank</dt>
          <dd>{data.bankName}</dd>
          <dt>IBAN or account</dt>
          <dd>{data.iban ?? data.accountNumber ?? '—'}</dd>
          <dt>Reference</dt>
          <dd>{data.reference ?? '—'}</dd>
          <dt>Active</dt>
          <dd>{data.active ? 'yes' : 'no'}</dd>
        </dl>
      )}
      {data?.active && !confirming && (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Deactivate this beneficiary
        </button>
      )}
      {data?.active && confirming && (
        <ConfirmStep
          act="Deactivate this beneficiary"
          consequence="A deactivated beneficiary can no longer be paid by a new payroll."
          busy={deactivate.busy}
          yes={() => void deactivate.run().then(() => setConfirming(false))}
          no={() => setConfirming(false)}
        />
      )}
      <ErrorBox error={deactivate.error} />
      <button type="button" onClick={() => navigate('/beneficiaries')}>
        Back to the beneficiaries
      </button>
    </Page>
  );
}
