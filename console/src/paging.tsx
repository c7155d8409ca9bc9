/**
 * A list read a page at a time through the API's cursor (`nextCursor`), and the buttons that move
 * through it. A change of what the list is of (a filter, a search, a status) starts it again from
 * its first page.
 */
import { useState } from 'preact/hooks';
import { type Loaded, useLoad } from './ui.js';

export interface Paged<T> extends Loaded<T> {
  cursor: string | undefined;
  go: (cursor: string | undefined) => void;
}

export function usePaged<T extends { nextCursor?: string | null }>(load: (cursor: string | undefined) => Promise<T>, deps: unknown[]): Paged<T> {
  const key = JSON.stringify(deps);
  const [at, setAt] = useState<{ key: string; cursor?: string | undefined }>({ key });
  const cursor = at.key === key ? at.cursor : undefined;
  const page = useLoad(() => load(cursor), [key, cursor]);
  return { ...page, cursor, go: (next) => setAt({ key, cursor: next }) };
}

/** "More …" while the API has a next page, and the way back to the first once past it. */
export function More<T extends { nextCursor?: string | null }>({ paged, label }: { paged: Paged<T>; label: string }) {
  const next = paged.data?.nextCursor ?? undefined;
  if (!next && !paged.cursor) return null;
  return (
    <p class="pager">
      {paged.cursor && (
        <button type="button" onClick={() => paged.go(undefined)}>
          Back to the first page
        </button>
      )}{' '}
      {next && (
        <button type="button" disabled={paged.loading} onClick={() => paged.go(next)}>
          {label}
        </button>
      )}
    </p>
  );
}
