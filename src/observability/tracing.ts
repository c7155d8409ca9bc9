import { SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { PrivateSpanProcessor } from './spanPrivacy.js';
import { type Tracer, installTracer, operationOf } from './telemetry.js';

/**
 * OpenTelemetry tracing (loaded by preload.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set): the
 * SDK with the OTLP/HTTP exporter and the http, Express and pg instrumentations; every standard
 * OTEL_* variable (service name, headers, sampler, batch delays) is read by the SDK itself. A
 * request's server span is named by its spec operation; SQL spans only inside another span, so
 * that the worker's idle polls send nothing. No span carries the query string, the raw path or
 * the client's address (PrivateSpanProcessor).
 */
export function startTracing(): void {
  const sdk = new NodeSDK({
    ...(!process.env.OTEL_SERVICE_NAME && { serviceName: 'payroll-fee-service' }),
    spanProcessors: [new PrivateSpanProcessor(new tracing.BatchSpanProcessor(new OTLPTraceExporter()))],
    ...(!process.env.OTEL_TRACES_SAMPLER && { sampler: defaultSampler() }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url === '/metrics',
        applyCustomAttributesOnSpan: (span, request, response) => {
          const operationId = operationOf(request, response);
          if (operationId) {
            span.updateName(operationId);
            span.setAttribute('payroll.operation_id', operationId);
          }
        },
      }),
      // A span per middleware (a dozen per request: helmet, the body parser, the validator's steps) would
      // triple the spans for little: the route's handler keeps its span, under which the use case runs.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Statements are prepared under a name derived from their text (src/store/postgres.ts), which the
      // instrumentation would put in the span's name: the SQL command says more (the text is an attribute;
      // parameter values never are, they may hold account details).
      new PgInstrumentation({
        requireParentSpan: true,
        requestHook: (span, { query, connection }) => {
          const command = query.text.trimStart().split(/\s/, 1)[0]!.toUpperCase();
          span.updateName(`pg.query:${command}${connection.database ? ` ${connection.database}` : ''}`);
        },
      }),
    ],
  });
  sdk.start();
  installTracer(otelTracer());
  // Spans still buffered are sent when the process is asked to stop (the entry points exit soon after).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void sdk.shutdown().catch(() => undefined));
}

function otelTracer(): Tracer {
  const tracer = trace.getTracer('payroll-fee-service');
  return {
    enabled: true,
    span: (name, attributes, work) =>
      tracer.startActiveSpan(name, { attributes }, async (span) => {
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

/**
 * Without OTEL_TRACES_SAMPLER (which the SDK reads, with OTEL_TRACES_SAMPLER_ARG): a trace begun
 * here is kept for one request in ten, a caller's sampled trace always, so that tracing costs
 * little enough to stay on (docs/operations.md).
 */
const DEFAULT_SAMPLE_RATIO = 0.1;

function defaultSampler(): tracing.Sampler {
  return new tracing.ParentBasedSampler({ root: new tracing.TraceIdRatioBasedSampler(DEFAULT_SAMPLE_RATIO) });
}
