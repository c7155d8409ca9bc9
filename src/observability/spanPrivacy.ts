import type { Context } from '@opentelemetry/api';
import type { tracing } from '@opentelemetry/sdk-node';

/**
 * Attributes of the HTTP instrumentation that carry what a caller sent or who they are: the query
 * string (a beneficiary search's name, amounts, ids), the full URL and the raw path (ids in it),
 * the client's address and user agent. The server span keeps the method, the status, the route
 * template (`http.route`) and the operation id, which say what ran without saying for whom.
 */
const PERSONAL_ATTRIBUTES = [
  'url.query',
  'url.full',
  'url.path',
  'http.url',
  'http.target',
  'http.client_ip',
  'client.address',
  'net.peer.ip',
  'network.peer.address',
  'http.user_agent',
  'user_agent.original',
];

/** Drops PERSONAL_ATTRIBUTES from every span as it ends, before `next` (the batching exporter) sees it. */
export class PrivateSpanProcessor implements tracing.SpanProcessor {
  constructor(private readonly next: tracing.SpanProcessor) {}

  onStart(span: tracing.Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: tracing.ReadableSpan): void {
    // The SDK's span keeps its attributes in a plain object, still writable once ended.
    const attributes = span.attributes as Record<string, unknown>;
    for (const key of PERSONAL_ATTRIBUTES) delete attributes[key];
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
