import type { IncomingMessage } from 'node:http';
import { type Context, SpanKind } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';

/** W3C `traceparent`: version, trace id, parent id, flags; bit 0 of the flags is "sampled". */
const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-([\da-f]{2})$/;

/**
 * Whether an incoming request is traced at all, decided before any span exists: a caller's
 * `traceparent` decides (sampled or not, as a parent-based sampler would), else one request in
 * `1 / ratio`. A request left out costs the instrumentations nothing more than this call: no
 * span, no context, no SQL spans (they need a parent). Deciding only after a span was made, as a
 * sampler does, still paid for the span, its context and its attributes on every request.
 */
export function tracedRequestFilter(ratio: number, random: () => number = Math.random): (request: IncomingMessage) => boolean {
  return (request) => {
    const header = request.headers.traceparent;
    const flags = typeof header === 'string' ? TRACEPARENT.exec(header.trim())?.[1] : undefined;
    if (flags !== undefined) return (Number.parseInt(flags, 16) & 1) === 1;
    return random() < ratio;
  };
}

/**
 * The sampler that goes with tracedRequestFilter: a server span is kept (its request was chosen
 * already), any other span begun without a parent (a worker's job) is kept at `ratio`, and a
 * child follows its parent.
 */
export function chosenRequestsSampler(ratio: number): tracing.Sampler {
  const others = new tracing.TraceIdRatioBasedSampler(ratio);
  const root: tracing.Sampler = {
    shouldSample: (context: Context, traceId: string, _name: string, kind: SpanKind) =>
      kind === SpanKind.SERVER ? { decision: tracing.SamplingDecision.RECORD_AND_SAMPLED } : others.shouldSample(context, traceId),
    toString: () => `ChosenRequests{servers: chosen before, others: ${others.toString()}}`,
  };
  return new tracing.ParentBasedSampler({ root });
}
