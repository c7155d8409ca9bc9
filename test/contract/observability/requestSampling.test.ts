import type { IncomingMessage } from 'node:http';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { describe, expect, it } from 'vitest';
import { chosenRequestsSampler, tracedRequestFilter } from '../../../src/observability/requestSampling.js';

const request = (traceparent?: string) => ({ headers: traceparent === undefined ? {} : { traceparent } }) as IncomingMessage;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('which requests are traced by default', () => {
  it('follows a caller’s traceparent, sampled or not, whatever the ratio draws', () => {
    const never = tracedRequestFilter(0.1, () => 0.99);
    const always = tracedRequestFilter(0.1, () => 0);
    expect(never(request(`00-${TRACE_ID}-00f067aa0ba902b7-01`))).toBe(true);
    expect(always(request(`00-${TRACE_ID}-00f067aa0ba902b7-00`))).toBe(false);
  });

  it('draws one request in 1/ratio without a traceparent, or with one that is not well formed', () => {
    expect(tracedRequestFilter(0.1, () => 0.05)(request())).toBe(true);
    expect(tracedRequestFilter(0.1, () => 0.1)(request())).toBe(false);
    expect(tracedRequestFilter(0.1, () => 0.05)(request('not-a-traceparent'))).toBe(true);
    let drawn = 0;
    const filter = tracedRequestFilter(0.1);
    for (let n = 0; n < 20_000; n++) if (filter(request())) drawn++;
    expect(drawn).toBeGreaterThan(1_600);
    expect(drawn).toBeLessThan(2_400);
  });
});

describe('the sampler that goes with it', () => {
  const { RECORD_AND_SAMPLED, NOT_RECORD } = tracing.SamplingDecision;
  const decide = (ratio: number, kind: SpanKind, parent = ROOT_CONTEXT) =>
    chosenRequestsSampler(ratio).shouldSample(parent, TRACE_ID, 'name', kind, {}, []).decision;

  it('keeps a chosen request’s server span, and draws other roots (a worker’s job) at the ratio', () => {
    expect(decide(0, SpanKind.SERVER)).toBe(RECORD_AND_SAMPLED);
    expect(decide(0, SpanKind.INTERNAL)).toBe(NOT_RECORD);
    expect(decide(1, SpanKind.INTERNAL)).toBe(RECORD_AND_SAMPLED);
  });

  it('makes a child follow its parent', () => {
    const parent = (flags: TraceFlags) =>
      trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: '00f067aa0ba902b7', traceFlags: flags, isRemote: true });
    expect(decide(0, SpanKind.INTERNAL, parent(TraceFlags.SAMPLED))).toBe(RECORD_AND_SAMPLED);
    expect(decide(1, SpanKind.SERVER, parent(TraceFlags.NONE))).toBe(NOT_RECORD);
  });
});
