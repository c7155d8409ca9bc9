/**
 * The one way a test waits for something to have happened (another transaction holding a lock, a
 * file in a folder, a row changed, a server answering): ask again every `everyMs` until
 * `deadlineMs`, instead of sleeping a fixed time and hoping. Fast when the machine is fast, and
 * when it never happens a failure that names `what` and prints what it last saw.
 */
export interface WaitOptions {
  /** How long to keep asking: a hang bound, generous on a loaded machine. */
  deadlineMs?: number;
  everyMs?: number;
  /** More to print when it gives up (a process's output so far). */
  context?: () => string;
}

/** How much of the last value a failure prints. */
const SEEN_CHARS = 2000;

function described(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // Circular or a BigInt: its string form says enough.
  }
  text ??= String(value);
  return text.length > SEEN_CHARS ? `${text.slice(0, SEEN_CHARS)}… (${text.length} chars)` : text;
}

/**
 * `read()` again and again until `done` holds of its value, which it returns; a failure naming
 * `what` with the last value seen once `deadlineMs` has passed. A `read` that throws ends the wait
 * with its error: map the errors that mean "not yet" (a server not listening) to a value.
 */
export async function waitFor<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  { deadlineMs = 10_000, everyMs = 10, context }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const more = context ? `\n${context()}` : '';
      throw new Error(`gave up after ${deadlineMs} ms waiting for: ${what}; last saw: ${described(value)}${more}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** waitFor of a yes-or-no question. */
export async function pollUntil(what: string, check: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  await waitFor(what, check, (yes) => yes, options);
}

/** `work`, or a failure naming `what` when it has not settled by `deadlineMs`. */
export async function settlesWithin<T>(what: string, work: Promise<T>, deadlineMs = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled after ${deadlineMs} ms: ${what}`)), deadlineMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
