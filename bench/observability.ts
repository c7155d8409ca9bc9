/**
 * What metrics and tracing cost: estimate-5 on servers of the same build, world and database, started
 * as `npm start` starts them (with the tracing preload) after the bench's own server has loaded the world:
 *   plain    metrics and tracing off: the reference
 *   control  plain again: what two identical servers differ by on this machine in this run
 *   metrics  METRICS_PORT set, scraped every SCRAPE_SECONDS as Prometheus would
 *   tracing  OTEL_EXPORTER_OTLP_ENDPOINT set, every span exported to a receiver in this process
 * Each round starts four fresh servers, one of each: two processes of one build can differ in CPU per
 * request for their whole life (what the JIT made of each), and a process kept for every round would
 * give its luck to one variant in all of them. A round runs every server twice, in an order and its
 * reverse (runRound); every run answers the same number of requests (the plain server's req/s in a
 * warm-up of the first round × the run's seconds). Each variant's server CPU per request and req/s are
 * divided by the plain server's of the same round; the figures are the median of these ratios over
 * the rounds and their spread (lowest–highest).
 * Server CPU per request (utime + stime of the server process, all its threads, over the answers of a
 * run) is what a variant costs on a shared machine: what other processes take changes how fast a
 * server answers far more than the CPU it spends per answer. The control's spread is the noise floor.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LoadFigures, type Target, loadRequests, log, median, medianFigures, round, warmUp } from './load.js';

/** How often the metrics server is scraped during the rounds (Prometheus's default is 15 s; this is harsher). */
const SCRAPE_SECONDS = 5;
/** The warm-up of a fresh server, seconds at least: its JIT's, before anything is measured. */
const FRESH_WARMUP_SECONDS = 3;
/** About how long one slice of a round lasts, seconds. */
const SLICE_SECONDS = 1;
const PRELOAD = ['--import', './dist/server/src/observability/preload.js'];
const SERVERS = ['plain', 'control', 'metrics', 'tracing'] as const;
type Server = (typeof SERVERS)[number];
type Compared = Exclude<Server, 'plain'>;
const LABELS: Record<Server, string> = { plain: 'plain', control: 'plain (control)', metrics: 'metrics on', tracing: 'tracing on' };

/** Per-round ratios (variant ÷ the plain runs around it), their median and their spread. */
export interface Ratios {
  median: number;
  lowest: number;
  highest: number;
  rounds: number[];
}

export interface VariantFigures extends LoadFigures {
  rpsRatio: Ratios;
  cpuRatio: Ratios | null;
}

export interface ObservabilityFigures {
  /** Requests answered in every run, by every server. */
  requestsPerRun: number;
  plain: LoadFigures;
  control: VariantFigures;
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

/** Scrapes `url` every SCRAPE_SECONDS, as Prometheus would, counting the answered scrapes. */
function scraper(url: string): { scrapes: () => number; stop: () => void } {
  let scrapes = 0;
  const timer = setInterval(() => {
    fetch(url)
      .then(async (response) => {
        await response.text();
        if (response.status === 200) scrapes += 1;
      })
      .catch(() => undefined);
  }, SCRAPE_SECONDS * 1000);
  return { scrapes: () => scrapes, stop: () => clearInterval(timer) };
}

const ratios = (values: number[]): Ratios => ({
  median: round(median(values), 3),
  lowest: round(Math.min(...values), 3),
  highest: round(Math.max(...values), 3),
  rounds: values.map((value) => round(value, 3)),
});

/** A variant's runs, each with the mean of the plain runs around it. */
function compare(runs: { variant: LoadFigures; plain: LoadFigures }[]): VariantFigures {
  const cpu = runs
    .map(({ variant, plain }) => [variant.cpuMsPerRequest, plain.cpuMsPerRequest] as const)
    .filter((pair): pair is readonly [number, number] => pair[0] !== null && pair[1] !== null && pair[1] > 0);
  return {
    ...medianFigures(runs.map((run) => run.variant)),
    rpsRatio: ratios(runs.map(({ variant, plain }) => variant.rps / plain.rps)),
    cpuRatio: cpu.length > 0 ? ratios(cpu.map(([variant, plain]) => variant / plain)) : null,
  };
}

/**
 * One round: every server answers `requests` twice over, in slices of about a second each, taken in
 * turn in an order and then its reverse (P C M T T M C P, the first server turning from round to
 * round) as many times as needed. Others' work on a shared machine comes in bursts of seconds: so
 * short and so interleaved, the slices of every server meet the same bursts, and each server's sum
 * over its slices is taken in the same conditions. Returns each server's figures over its slices.
 */
async function runRound(targets: Record<Server, Target>, requests: number, seconds: number, n: number, rounds: number): Promise<Record<Server, LoadFigures>> {
  const half = SERVERS.map((_, i) => SERVERS[(i + n) % SERVERS.length]!);
  const order = [...half, ...[...half].reverse()];
  const turns = Math.max(1, Math.round(seconds / SLICE_SECONDS));
  const slice = Math.ceil(requests / turns);
  log(`observability round ${n + 1} of ${rounds}: ${turns} turns of ${order.join(', ')}, ${slice} requests a slice`);
  const slices = new Map<Server, LoadFigures[]>(SERVERS.map((name) => [name, []]));
  for (let turn = 0; turn < turns; turn++) for (const name of order) slices.get(name)!.push(await loadRequests(targets[name], slice));
  const result = Object.fromEntries(SERVERS.map((name) => [name, overSlices(slices.get(name)!)])) as Record<Server, LoadFigures>;
  const ratio = (value: number | null, base: number | null) => (value !== null && base ? (value / base).toFixed(3) : '—');
  for (const name of SERVERS) {
    const [own, plain] = [result[name], result.plain];
    log(
      `  ${LABELS[name]}: ${own.rps} req/s, server CPU ${own.cpuMsPerRequest} ms per answer` +
        (name === 'plain' ? '' : ` (÷ plain: CPU/request ${ratio(own.cpuMsPerRequest, plain.cpuMsPerRequest)}, req/s ${ratio(own.rps, plain.rps)})`),
    );
  }
  return result;
}

/** A server's slices as one run: CPU per answer over all of them (they answer as many each), req/s over their total time. */
function overSlices(slices: LoadFigures[]): LoadFigures {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const cpu = slices.map((s) => s.cpuMsPerRequest).filter((value): value is number => value !== null);
  return {
    rps: round(1 / mean(slices.map((s) => 1 / s.rps)), 0),
    p50Ms: round(median(slices.map((s) => s.p50Ms)), 1),
    p99Ms: round(median(slices.map((s) => s.p99Ms)), 1),
    cpuMsPerRequest: cpu.length === slices.length ? round(mean(cpu), 4) : null,
    dbCpuMsPerRequest: null,
  };
}

/** Fresh servers for a round, one of each kind, named after the round (their logs, their profiles). */
async function launchServers(launch: LaunchVariant, envs: Record<Server, NodeJS.ProcessEnv>, n: number): Promise<Record<Server, Variant>> {
  const servers: Partial<Record<Server, Variant>> = {};
  try {
    for (const name of SERVERS) servers[name] = await launch(`${name}-${n + 1}`, envs[name], PRELOAD);
  } catch (error) {
    for (const server of Object.values(servers)) await server.stop();
    throw error;
  }
  return servers as Record<Server, Variant>;
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
  const scrape = scraper(`http://127.0.0.1:${metricsPort}/metrics`);
  const envs: Record<Server, NodeJS.ProcessEnv> = {
    plain: {},
    control: {},
    metrics: { METRICS_PORT: String(metricsPort) },
    tracing: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' },
  };
  const { databasePids: _database, ...request } = estimate;
  const target = (name: Server, server: Variant): Target => ({
    ...request,
    name: `estimate-5, ${LABELS[name]}`,
    pid: server.pid,
    url: estimate.url.replace(/^http:\/\/[^/]+/, server.base),
  });
  try {
    let requests = 0;
    const perRound: Record<Server, LoadFigures>[] = [];
    for (let n = 0; n < rounds; n++) {
      const servers = await launchServers(launch, envs, n);
      try {
        const targets = {
          plain: target('plain', servers.plain),
          control: target('control', servers.control),
          metrics: target('metrics', servers.metrics),
          tracing: target('tracing', servers.tracing),
        };
        for (const name of SERVERS) await warmUp(targets[name], Math.max(warmupSeconds, FRESH_WARMUP_SECONDS));
        if (n === 0) {
          const plainRps = await warmUp(targets.plain, seconds);
          requests = Math.max(1000, Math.round((plainRps * seconds) / 500) * 500);
          log(`observability: ${requests} requests per run (the plain server's ${Math.round(plainRps)} req/s in a warm-up of ${seconds} s)`);
        }
        perRound.push(await runRound(targets, requests, seconds, n, rounds));
      } finally {
        for (const server of Object.values(servers)) await server.stop();
      }
    }
    const runs = (name: Compared) => perRound.map((round) => ({ variant: round[name], plain: round.plain }));
    return {
      requestsPerRun: requests,
      plain: medianFigures(perRound.map((round) => round.plain)),
      control: compare(runs('control')),
      metrics: compare(runs('metrics')),
      tracing: compare(runs('tracing')),
      spansExported: sink.spans(),
      scrapes: scrape.scrapes(),
    };
  } finally {
    scrape.stop();
    await sink.close();
  }
}
