/**
 * Waits for what a test needs to have happened (another transaction holding a lock, a request
 * waiting on it) by asking again every `everyMs` until `deadlineMs`, instead of sleeping a fixed
 * time and hoping: fast when the machine is fast, and a clear failure naming `what` when it never
 * happens.
 */
export async function pollUntil(what: string, check: () => Promise<boolean>, { deadlineMs = 10_000, everyMs = 10 } = {}): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${deadlineMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
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
