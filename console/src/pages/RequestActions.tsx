/** The forms of the actions a user may take on a payroll request now (console/src/requestActions.ts decides which), each with its own error. */
import { type components, unwrap } from 'payroll-fee-service';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { DESTRUCTIVE, type RequestAction, actionsFor } from '../requestActions.js';
import { api, session } from '../session.js';
import { ConfirmStep, ErrorBox, Field, useAction } from '../ui.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/** The quote's validity offered by default: 30 minutes, the spec's example (at most 24 hours). */
const DEFAULT_QUOTE_SECONDS = 1800;

/**
 * A form that gives a reason for an act. A destructive one (cancel, reject, fail: nothing undoes
 * them) is drawn in the danger style and asks for a confirmation naming the act before it is done.
 */
function ReasonForm(props: { label: string; button: string; confirm: string; act: (reason: string) => Promise<void> }) {
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const action = useAction(props.act);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setConfirming(true);
      }}
    >
      <Field label={props.label}>
        <input type="text" value={reason} required maxLength={500} onInput={(event) => setReason(event.currentTarget.value)} />
      </Field>
      {!confirming && (
        <button type="submit" class="danger">
          {props.button}
        </button>
      )}
      {confirming && (
        <ConfirmStep
          act={props.button}
          consequence={`${props.confirm} This cannot be undone.`}
          busy={action.busy}
          yes={() => void action.run(reason).then(() => setConfirming(false))}
          no={() => setConfirming(false)}
        />
      )}
      <ErrorBox error={action.error} />
    </form>
  );
}

function RateForm(props: { label: string; button: string; withExpiry: boolean; act: (rate: string, seconds: number) => Promise<void> }) {
  const [rate, setRate] = useState('');
  const [seconds, setSeconds] = useState(String(DEFAULT_QUOTE_SECONDS));
  const action = useAction(props.act);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(rate.trim(), Number(seconds));
      }}
    >
      <Field label={props.label} hint="Payroll-currency units per source-currency unit, as a decimal (e.g. 3.6700)">
        <input type="text" inputMode="decimal" value={rate} required pattern="[0-9]+(\.[0-9]+)?" onInput={(event) => setRate(event.currentTarget.value)} />
      </Field>
      {props.withExpiry && (
        <Field label="Quote valid for (seconds)" hint={`Default ${DEFAULT_QUOTE_SECONDS} s (30 minutes); at most 86400`}>
          <input type="number" min={1} max={86400} value={seconds} required onInput={(event) => setSeconds(event.currentTarget.value)} />
        </Field>
      )}
      <button type="submit" class="primary" disabled={action.busy}>
        {props.button}
      </button>
      <ErrorBox error={action.error} />
    </form>
  );
}

export function RequestActions({ request, changed }: { request: PayrollRequest; changed: () => void }) {
  const user = session();
  const path = { params: { path: { requestId: request.id } } };
  const key = () => ({ idempotencyKey: crypto.randomUUID() });
  const done = async (answer: Parameters<typeof unwrap>[0]) => {
    unwrap(answer);
    changed();
  };
  const accept = useAction(async () => done(await api.POST('/v1/customers/payroll/requests/{requestId}/accept', { ...path, ...key() })));
  const approve = useAction(async () => done(await api.POST('/v1/customers/payroll/requests/{requestId}/approve', { ...path, ...key() })));
  if (!user) return null;
  const form: Record<RequestAction, () => JSX.Element> = {
    approve: () => (
      <div key="approve">
        <button type="button" class="primary" disabled={approve.busy} onClick={() => void approve.run()}>
          Approve this payroll request
        </button>
        <ErrorBox error={approve.error} />
      </div>
    ),
    accept: () => (
      <div key="accept">
        <button type="button" class="primary" disabled={accept.busy} onClick={() => void accept.run()}>
          Accept the quote
        </button>
        <ErrorBox error={accept.error} />
      </div>
    ),
    quote: () => (
      <RateForm
        key="quote"
        label="Quoted exchange rate"
        button="Provide the quote"
        withExpiry
        act={async (exchangeRate, expiresInSeconds) =>
          done(await api.POST('/v1/admin/payroll/requests/{requestId}/quote', { ...path, body: { exchangeRate, expiresInSeconds }, ...key() }))
        }
      />
    ),
    recordFxExchange: () => (
      <RateForm
        key="fx"
        label="Exchange rate obtained"
        button="Record the FX exchange"
        withExpiry={false}
        act={async (exchangeRate) => done(await api.POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { ...path, body: { exchangeRate }, ...key() }))}
      />
    ),
    reject: () => (
      <ReasonForm
        key="reject"
        label="Reason for rejecting"
        button="Reject this payroll request"
        confirm="Rejecting cancels the request; nothing was debited."
        act={async (reason) => done(await api.POST('/v1/customers/payroll/requests/{requestId}/reject', { ...path, body: { reason }, ...key() }))}
      />
    ),
    cancel: () => (
      <ReasonForm
        key="cancel"
        label="Reason for cancelling"
        button="Cancel this payroll request"
        confirm={
          request.status === 'AWAITING_APPROVAL'
            ? 'Cancelling withdraws the request; nothing was debited.'
            : 'Cancelling returns what was debited to your account.'
        }
        act={async (reason) => done(await api.POST('/v1/customers/payroll/requests/{requestId}/cancel', { ...path, body: { reason }, ...key() }))}
      />
    ),
    fail: () => (
      <ReasonForm
        key="fail"
        label="Reason for failing"
        button="Fail this payroll request"
        confirm="Failing stops the request and returns the customer's funds."
        act={async (reason) => done(await api.POST('/v1/admin/payroll/requests/{requestId}/fail', { ...path, body: { reason }, ...key() }))}
      />
    ),
  };
  const actions = actionsFor(request, user);
  // What moves the request on, and apart from it what stops it for good.
  const forms = actions.filter((action) => !DESTRUCTIVE.includes(action)).map((action) => form[action]());
  const stops = actions.filter((action) => DESTRUCTIVE.includes(action)).map((action) => form[action]());
  if (actions.length === 0) return null;
  return (
    <section aria-labelledby="actions-heading">
      <h2 id="actions-heading">Actions</h2>
      {forms}
      {stops.length > 0 && (
        <section class="danger-zone" aria-labelledby="stop-heading">
          <h3 id="stop-heading">Stop this request</h3>
          {stops}
        </section>
      )}
    </section>
  );
}
