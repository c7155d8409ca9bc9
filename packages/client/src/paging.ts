/**
 * Cursor lists and safe retries on top of the typed calls: both take a function that makes the call
 * (so every path, parameter and body stays typed by the spec) and unwrap its envelope.
 */
import { PayrollApiError, unwrap } from './envelope.js';

/** What an openapi-fetch call resolves to, for an operation whose success `data` is `T`. */
export type CallResult<T> = { data?: { data: T }; error?: unknown; response: Response };

/** A page of a cursor list: `items`, and the `nextCursor` to pass as `cursor` (null on the last page). */
export interface CursorPage<Item> {
  items: Item[];
  nextCursor?: string | null;
}

/**
 * Every item of a cursor list, page after page: `page(cursor)` calls the list operation with that
 * `cursor` (undefined for the first page) and the same filters.
 *
 * ```ts
 * for await (const beneficiary of paginate((cursor) => api.GET('/v1/customers/beneficiaries', { params: { query: { cursor, q: 'Khan' } } }))) {
 *   console.log(beneficiary.displayName);
 * }
 * ```
 */
export async function* paginate<Item>(page: (cursor: string | undefined) => Promise<CallResult<CursorPage<Item>>>): AsyncGenerator<Item, void, undefined> {
  let cursor: string | undefined;
  do {
    const current = unwrap(await page(cursor));
    yield* current.items;
    cursor = current.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  attempts?: number;
  /** The first backoff, doubled after each failure, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** The longest wait between two attempts, `Retry-After` included (default 30 s). */
  maxDelayMs?: number;
  /** The key to send; a fresh `crypto.randomUUID()` by default. Keep it to retry the same intent later. */
  idempotencyKey?: string;
  /** Waits (tests); `setTimeout` by default. */
  sleep?: (ms: number) => Promise<void>;
}

/** Answers worth retrying with the same key: nothing was done, or the first attempt is still running. */
function retryable(result: CallResult<unknown>): boolean {
  const { status } = result.response;
  if (status === 429 || status >= 500) return true;
  const code = (result.error as { error?: { code?: unknown } } | undefined)?.error?.code;
  return status === 409 && code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('Retry-After');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * Calls a state-changing operation with an `Idempotency-Key` and retries it with the same key while
 * the answer says nothing was done or the first attempt still runs: 409
 * `IDEMPOTENCY_KEY_IN_PROGRESS`, 429, any 5xx (503 included, waiting its `Retry-After`), or a network
 * error. The key makes each retry safe: the operation runs at most once. Returns the `data`, or
 * throws the last {@link PayrollApiError}.
 *
 * ```ts
 * const request = await createWithRetry((idempotencyKey) => api.POST('/v1/customers/payroll/requests', { body, idempotencyKey }));
 * ```
 */
export async function createWithRetry<T>(call: (idempotencyKey: string) => Promise<CallResult<T>>, options: RetryOptions = {}): Promise<T> {
  const { attempts = 5, baseDelayMs = 500, maxDelayMs = 30_000 } = options;
  const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    let result: CallResult<T> | undefined;
    let failure: unknown;
    try {
      result = await call(key);
    } catch (error) {
      if (error instanceof PayrollApiError) throw error;
      failure = error; // the network: the request may or may not have arrived, the key settles it
    }
    if (result && (!retryable(result) || attempt >= attempts)) return unwrap(result);
    if (!result && attempt >= attempts) throw failure;
    const backoff = Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    await sleep(Math.min(maxDelayMs, (result && retryAfterMs(result.response)) ?? backoff));
  }
}
