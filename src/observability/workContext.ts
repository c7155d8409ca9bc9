import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the code on the current asynchronous path is working for: an HTTP request, or a job of the
 * worker. Node carries it through every callback and promise started inside it, so that a failure
 * nobody handled (an exception thrown from a timer, a promise left unawaited) can still be logged
 * with the request or job it belonged to (composition/processFailures.ts).
 */
export type WorkContext = { requestId: string; method: string; path: string } | { job: string; id?: string };

const current = new AsyncLocalStorage<WorkContext>();

/** Runs `work` (and everything it starts) as part of `context`. */
export function runInWorkContext<T>(context: WorkContext, work: () => T): T {
  return current.run(context, work);
}

/** The request or job the calling code works for; undefined outside any. */
export function currentWorkContext(): WorkContext | undefined {
  return current.getStore();
}
