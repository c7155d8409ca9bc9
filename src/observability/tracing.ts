import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import { Server as NetServer } from 'node:net';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { chosenRequestsSampler, tracedRequestFilter } from './requestSampling.js';
import { PrivateSpanProcessor } from './spanPrivacy.js';
import { type Tracer, installTracer, operationOf, routeOf } from './telemetry.js';
import { currentWorkContext } from './workContext.js';

/**
 * Without OTEL_TRACES_SAMPLER (which the SDK reads, with OTEL_TRACES_SAMPLER_ARG): one request in
 * twenty is traced, a caller's sampled trace always. A traced request costs many times what an
 * untraced one pays for tracing (its spans made, recorded, serialised and sent), so the ratio
 * bounds tracing's cost: low enough for it to stay on (docs/operations.md has the measurements).
 */
const DEFAULT_SAMPLE_RATIO = 0.05;

/**
 * OpenTelemetry tracing (loaded by preload.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set): the
 * SDK with the OTLP/HTTP exporter and the http and pg instrumentations; every standard
 * OTEL_* variable (service name, headers, sampler, batch delays) is read by the SDK itself. A
 * request's server span is named by its spec operation; SQL spans only inside another span, so
 * that the worker's idle polls send nothing. No span carries the query string, the raw path or
 * the client's address (PrivateSpanProcessor).
 */
export function startTracing(): void {
  // The SDK would also push metrics and logs over OTLP when these are unset: Prometheus and the
  // JSON log already carry them, so only traces leave unless an operator asks for more.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // The standard sampler variable, when set, decides alone; by default a request is chosen (or not) before any span is made.
  const chooseRequests = !process.env.OTEL_TRACES_SAMPLER;
  const sdk = new NodeSDK({
    ...(!process.env.OTEL_SERVICE_NAME && { serviceName: 'payroll-fee-service' }),
    spanProcessors: [new PrivateSpanProcessor(new tracing.BatchSpanProcessor(new OTLPTraceExporter()))],
    ...(chooseRequests && { sampler: chosenRequestsSampler(DEFAULT_SAMPLE_RATIO) }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url === '/metrics',
        applyCustomAttributesOnSpan: (span, request, response) => {
          const operationId = operationOf(request, response);
          if (operationId) {
            span.updateName(operationId);
            span.setAttribute('payroll.operation_id', operationId);
          }
          const route = routeOf(request);
          if (route) span.setAttribute('http.route', route);
        },
      }),
      // No Express instrumentation: its wrapper ran on every middleware of every request, and the
      // request's span, named by its operation with its route, already says what it would.
      // Statements are prepared under a name derived from their text (src/store/database/postgres.ts), which the
      // instrumentation would put in the span's name: the SQL command says more (the text is an attribute;
      // parameter values never are, they may hold account details).
      new PgInstrumentation({
        requireParentSpan: true,
        // Taking a pooled connection is not work worth a span of its own (the pool's waits are a metric).
        ignoreConnectSpans: true,
        requestHook: (span, { query, connection }) => {
          const command = query.text.trimStart().split(/\s/, 1)[0]!.toUpperCase();
          span.updateName(`pg.query:${command}${connection.database ? ` ${connection.database}` : ''}`);
        },
      }),
    ],
  });
  sdk.start();
  if (chooseRequests) leaveUnchosenRequestsUntraced(tracedRequestFilter(DEFAULT_SAMPLE_RATIO));
  installTracer(otelTracer());
  // Spans still buffered are sent when the process is asked to stop (the entry points exit soon after).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void sdk.shutdown().catch(() => undefined));
}

/**
 * A request not chosen for tracing is handed to the server as if the http instrumentation were
 * not there. The instrumentation's own way to leave a request out (ignoreIncomingRequestHook)
 * still ran it in a context of its own and wrapped every listener of its request and response
 * for that context: most of what tracing cost on every request. Such a request has no active
 * span, so its SQL makes none (they need a parent) and its use cases open none (otelTracer).
 */
function leaveUnchosenRequestsUntraced(chosen: (request: IncomingMessage) => boolean): void {
  // The instrumentation patches http as it is first loaded: loaded here, it is patched now, and this wraps the patch.
  const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');
  type Emit = (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  const traced = http.Server.prototype.emit as Emit;
  if (!('__wrapped' in traced)) throw new Error('the http instrumentation did not patch http.Server as it was loaded');
  const untraced = NetServer.prototype.emit as Emit;
  const emit: Emit = function (event, ...args) {
    const request = event === 'request' ? (args[0] as IncomingMessage) : undefined;
    return (request && !chosen(request) ? untraced : traced).call(this, event, ...args);
  };
  http.Server.prototype.emit = emit as typeof http.Server.prototype.emit;
}

function otelTracer(): Tracer {
  const tracer = trace.getTracer('payroll-fee-service');
  return {
    enabled: true,
    span: (name, attributes, work) =>
      // A request left out of tracing has no span: its use case adds none of its own.
      !trace.getActiveSpan() && currentWorkContext() && 'requestId' in currentWorkContext()!
        ? work()
        : tracer.startActiveSpan(name, { attributes }, async (span) => {
            try {
              return await work();
            } catch (error) {
              span.recordException(error as Error);
              span.setStatus({ code: SpanStatusCode.ERROR });
              throw error;
            } finally {
              span.end();
            }
          }),
    traceId: () => trace.getActiveSpan()?.spanContext().traceId,
  };
}
