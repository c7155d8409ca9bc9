/** Shared pieces: links, errors from the envelope, amounts as the API's strings, times local or UTC. */
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { PayrollApiError } from 'payroll-fee-service';
import { formatDecimal } from './money.js';
import { BASE, navigate } from './router.js';
import { Table } from './table.js';

export function Link(props: { to: string; children: ComponentChildren; class?: string }) {
  const onClick = (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={BASE + props.to} onClick={onClick} class={props.class}>
      {props.children}
    </a>
  );
}

type Place = { row?: number; column?: string; field?: string; reason?: string; message: string };

/**
 * A link to a payroll request, named by the end of its id: ids made together share their start, so
 * the end tells them apart (the whole id is the link's title).
 */
export function RequestLink({ id }: { id: string }) {
  return (
    <span title={id}>
      <Link to={`/requests/${id}`}>Request {id.slice(-12)}</Link>
    </span>
  );
}

/** An error where it happened: the envelope's code and message, and each of its details (row, column, field). */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  if (!(error instanceof PayrollApiError))
    return (
      <div role="alert" class="error">
        {String((error as Error).message ?? error)}
      </div>
    );
  return (
    <div role="alert" class="error">
      <p>
        <strong>{error.code}</strong>: {error.message}
        {error.field ? ` (field ${error.field})` : ''}
      </p>
      {error.details && error.details.length > 0 && (
        <Table
          caption={`Problems (${error.details.length})`}
          rows={error.details.map((detail, index) => ({ ...(detail as Place), index }))}
          rowKey={(place) => String(place.index)}
          columns={[
            { header: 'Row', cell: (place) => place.row ?? '', numeric: true },
            { header: 'Column', cell: (place) => place.column ?? place.field ?? '' },
            { header: 'Reason', cell: (place) => place.reason ?? '' },
            { header: 'Message', cell: (place) => place.message },
          ]}
        />
      )}
      {error.requestId && <p class="muted">Request id {error.requestId}</p>}
    </div>
  );
}

/**
 * An amount as the API wrote it (a decimal string, never through a float), grouped by thousands,
 * with its currency; `decimals` (the currency's minor units, where known) only pads with zeros.
 */
export function Amount({ value, currency, decimals }: { value: string | null | undefined; currency: string | null | undefined; decimals?: number }) {
  if (value === null || value === undefined) return <span>—</span>;
  return (
    <span class="amount">
      {formatDecimal(value, decimals)}
      {currency ? `\u00a0${currency}` : ''}
    </span>
  );
}

let utc = false;
const utcListeners = new Set<() => void>();
export function setUtc(value: boolean): void {
  utc = value;
  utcListeners.forEach((listener) => listener());
}
export function useUtc(): boolean {
  const [value, setValue] = useState(utc);
  useEffect(() => {
    const listener = () => setValue(utc);
    utcListeners.add(listener);
    return () => void utcListeners.delete(listener);
  }, []);
  return value;
}

/** A time in the reader's time zone, or in UTC when chosen; the UTC value is always its title and datetime. */
export function Time({ value }: { value: string | null | undefined }) {
  const inUtc = useUtc();
  if (!value) return <span>—</span>;
  const date = new Date(value);
  const text = inUtc ? `${value.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC` : date.toLocaleString();
  return (
    <time dateTime={value} title={`${value} (UTC)`}>
      {text}
    </time>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads once per change of `deps`; `reload` loads again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error: unknown) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => void (live = false);
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((value) => value + 1), []) };
}

/** An action (a button's or a form's): its error is kept to be shown beside it. */
export function useAction<A extends unknown[]>(act: (...args: A) => Promise<void>) {
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const run = async (...args: A) => {
    setBusy(true);
    setError(undefined);
    try {
      await act(...args);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy };
}

export function Field(props: { label: string; children: JSX.Element; hint?: string }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children}
      {props.hint && <small>{props.hint}</small>}
    </label>
  );
}

export function Page(props: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Payroll console`;
  }, [props.title]);
  return (
    <section>
      <h1>{props.title}</h1>
      {props.children}
    </section>
  );
}

/**
 * The second step of a destructive act: what it does, said once more, and the act named again on the
 * button that does it, beside the way out.
 */
export function ConfirmStep(props: { act: string; consequence: string; busy: boolean; yes: () => void; no: () => void }) {
  return (
    <div class="confirm" role="group" aria-label={`Confirm: ${props.act}`}>
      <p>{props.consequence}</p>
      <button type="button" class="danger" disabled={props.busy} onClick={props.yes}>
        Yes, {props.act.charAt(0).toLowerCase() + props.act.slice(1)}
      </button>{' '}
      <button type="button" onClick={props.no}>
        No, keep it
      </button>
    </div>
  );
}

/** Hands a CSV text the console has fetched (with the signed-in token) to the browser as a file to save. */
export function saveCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}
