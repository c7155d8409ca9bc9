import { type Listening, listen } from './http.js';
import { waitFor } from './polling.js';

/** One span of an OTLP/JSON export (the fields the tests read). */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** An OTLP/HTTP receiver (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) on loopback: every exported span, in the order received. */
export interface OtlpReceiver extends Listening {
  spans: ExportedSpan[];
  /** The spans of `traceId` once `until` holds of them; a failure showing them when it does not within 15 s. */
  spansOf(traceId: string, until: (trace: ExportedSpan[]) => boolean): Promise<ExportedSpan[]>;
}

export async function otlpReceiver(): Promise<OtlpReceiver> {
  const spans: ExportedSpan[] = [];
  const receiver = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  const spansOf = (traceId: string, until: (trace: ExportedSpan[]) => boolean) =>
    waitFor(`the spans of trace ${traceId}`, () => spans.filter((span) => span.traceId === traceId), until, { deadlineMs: 15_000, everyMs: 100 });
  return { ...receiver, spans, spansOf };
}
