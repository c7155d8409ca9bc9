// A test's entry point (test/process/processFailures.test.ts): the real service or worker, built as
// `npm start` and `npm run worker` run it (dist/server/), made to hit a rejection nobody handles once
// it has registered its handlers, inside a request's or a job's work context. It lives under test/
// and is run by name: nothing the service ships can trigger it.
/* global setTimeout */
const built = new URL('../../../dist/server/src/', import.meta.url);
const { runInWorkContext } = await import(new URL('observability/workContext.js', built).href);
const worker = process.env.FAILING_ENTRY === 'worker';
await import(new URL(worker ? 'worker/main.js' : 'main.js', built).href);

// The entry point registers its SIGTERM handler and its failure shutdown in the same step, once up.
while (process.listenerCount('SIGTERM') === 0) await new Promise((resolve) => setTimeout(resolve, 20));
const context = worker ? { job: 'a job of the test', id: 'job-1' } : { requestId: 'request-of-the-test', method: 'POST', path: '/v1/test' };
runInWorkContext(context, () => {
  void Promise.reject(new Error('a rejection nobody handles (test)'));
});
