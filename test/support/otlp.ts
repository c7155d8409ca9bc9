import { type Listening, listen } from './http.js';

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
  /** The spans of `traceId` once `until` holds of them, or after 15 s whatever they are. */
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
  const spansOf = async (traceId: string, until: (trace: ExportedSpan[]) => boolean) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const trace = spans.filter((span) => span.traceId === traceId);
      if (until(trace) || Date.now() > deadline) return trace;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { ...receiver, spans, spansOf };
}
