/**
 * What metrics and tracing cost: estimate-5 on three servers of the same build, world and database,
 * started side by side after the bench's own server has loaded the world, so that the three start
 * alike (the plain one as the bench runs it; the metrics one with METRICS_PORT, scraped every
 * SCRAPE_SECONDS as Prometheus would; the tracing one with OTEL_EXPORTER_OTLP_ENDPOINT, exporting
 * every span to a sink in this process), measured in rounds of
 *   P M P T P   (P: the plain server; M: metrics on; T: tracing on)
 * so that each variant is compared with the plain runs just before and after it. Figures are the
 * medians over the rounds of variant ÷ plain, for req/s and for the server's CPU per request.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LoadFigures, type Target, load, log, meanOf, median, medianFigures, round } from './load.js';

/** How often the metrics server is scraped during the rounds (Prometheus's default is 15 s; this is harsher). */
const SCRAPE_SECONDS = 5;

export interface VariantFigures extends LoadFigures {
  /** Median over rounds of (variant req/s ÷ mean of the plain runs around it). */
  ratio: number;
  /** Median over rounds of (variant server CPU ms per request ÷ the plain runs'). */
  cpuRatio: number | null;
}

export interface ObservabilityFigures {
  plain: LoadFigures;
  metrics: VariantFigures;
  tracing: VariantFigures;
  /** Spans the tracing server exported during the rounds, and scrapes of the metrics server. */
  spansExported: number;
  scrapes: number;
}

/** A running variant of the server: where it answers, and how to stop it. */
export interface Variant {
  pid: number;
  base: string;
  stop: () => Promise<void>;
}

export type LaunchVariant = (name: string, env: NodeJS.ProcessEnv, nodeArgs: string[]) => Promise<Variant>;

/** An OTLP/HTTP receiver that reads and counts what it is sent (JSON), answering 200 at once. */
async function otlpSink(): Promise<{ url: string; spans: () => number; close: () => Promise<void> }> {
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      spans += (text.match(/"spanId"/g) ?? []).length;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function measureObservability(options: {
  /** The estimate-5 request (on the bench's own server: its URL's host is replaced by each variant's). */
  estimate: Target;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  metricsPort: number;
  launch: LaunchVariant;
}): Promise<ObservabilityFigures> {
  const { estimate, rounds, seconds, warmupSeconds, metricsPort, launch } = options;
  const sink = await otlpSink();
  const withNothing = await launch('plain', {}, []);
  const withMetrics = await launch('metrics', { METRICS_PORT: String(metricsPort) }, []);
  const withTracing = await launch(
    'tracing',
    { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' },
    ['--import', './dist/server/src/observability/preload.js'],
  );
  let scrapes = 0;
  const scraper = setInterval(() => {
    fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      .then(async (response) => {
        await response.text();
        if (response.status === 200) scrapes += 1;
      })
      .catch(() => undefined);
  }, SCRAPE_SECONDS * 1000);
  try {
    const variant = (name: string, server: Variant): Target => {
      const { databasePids: _database, ...request } = estimate;
      return { ...request, name, pid: server.pid, url: estimate.url.replace(/^http:\/\/[^/]+/, server.base) };
    };
    const plain = variant('estimate-5, plain', withNothing);
    const targets = { metrics: variant('estimate-5, metrics on', withMetrics), tracing: variant('estimate-5, tracing on', withTracing) };
    const results: { plain: LoadFigures[]; metrics: LoadFigures; tracing: LoadFigures }[] = [];
    for (let n = 0; n < rounds; n++) {
      log(`observability round ${n + 1} of ${rounds}: plain, metrics, plain, tracing, plain`);
      const warm = n === 0 ? warmupSeconds : 0;
      const p1 = await load(plain, seconds, warm);
      const metrics = await load(targets.metrics, seconds, warm);
      const p2 = await load(plain, seconds, 0);
      const tracing = await load(targets.tracing, seconds, warm);
      const p3 = await load(plain, seconds, 0);
      results.push({ plain: [p1, p2, p3], metrics, tracing });
    }
    const compared = (pick: 'metrics' | 'tracing'): VariantFigures => {
      const around = (r: (typeof results)[number]) => (pick === 'metrics' ? meanOf(r.plain[0]!, r.plain[1]!) : meanOf(r.plain[1]!, r.plain[2]!));
      const cpu = results
        .map((r) => [r[pick].cpuMsPerRequest, around(r).cpuMsPerRequest] as const)
        .filter((pair): pair is readonly [number, number] => pair[0] !== null && pair[1] !== null && pair[1] > 0);
      return {
        ...medianFigures(results.map((r) => r[pick])),
        ratio: round(median(results.map((r) => r[pick].rps / around(r).rps)), 3),
        cpuRatio: cpu.length > 0 ? round(median(cpu.map(([variant, base]) => variant / base)), 3) : null,
      };
    };
    return {
      plain: medianFigures(results.flatMap((r) => r.plain)),
      metrics: compared('metrics'),
      tracing: compared('tracing'),
      spansExported: sink.spans(),
      scrapes,
    };
  } finally {
    clearInterval(scraper);
    await withNothing.stop();
    await withMetrics.stop();
    await withTracing.stop();
    await sink.close();
  }
}
