/**
 * Loaded before the entry point (`node --import ./dist/server/src/observability/preload.js …`, as
 * `npm start` and `npm run worker` run): with OTEL_EXPORTER_OTLP_ENDPOINT set, starts tracing
 * before pg is imported, which its instrumentation needs (an ES module is hooked
 * only by a loader registered before it is imported). Unset, it does nothing and loads nothing.
 */
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT && process.env.OTEL_SDK_DISABLED !== 'true') {
  const { register } = await import('node:module');
  // The loader wraps only the packages instrumented (every other module loads as before).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: ['pg', 'pg-pool'] } });
  const { startTracing } = await import('./tracing.js');
  startTracing();
}

export {};
