/**
 * What metrics and tracing cost: estimate-5 on servers of the same build, world and database, started
 * as `npm start` starts them (with the tracing preload) after the bench's own server has loaded the world:
 *   plain    metrics and tracing off: the reference
 *   control  plain again: what two identical servers differ by on this machine in this run
 *   metrics  METRICS_PORT set, scraped every SCRAPE_SECONDS as Prometheus would
 *   tracing  OTEL_EXPORTER_OTLP_ENDPOINT set at the default sampling (no OTEL_TRACES_SAMPLER), the
 *            sampled spans exported to a receiver in this process
 * Each round starts four fresh servers, one of each: two processes of one build can differ in CPU per
 * request for their whole life (what the JIT made of each), and a process kept for every round would
 * give its luck to one variant in all of them. In a round every server answers the same number of
 * requests (twice the plain server's req/s in a warm-up of the first round × the run's seconds), in
 * slices of about a second taken in turn (runRound). Each variant's server CPU per request and req/s
 * are divided by the plain server's of the same round; the figures are the median of these ratios
 * over the rounds and their spread (lowest–highest).
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

/** Per-round ratios (variant ÷ the plain server of the same round), their median and their spread. */
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
  /** Requests every server answers in a round. */
  requestsPerRound: number;
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

/** A variant's rounds, each with the plain server's figures of the same round. */
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
 * An order of the four servers in which each follows each other server exactly once (a circuit
 * through every ordered pair), run over and over: what a run leaves behind for the next (the tracing
 * server's spans still being exported, the closing of the load generator's connections) falls on
 * every server alike, and no server runs twice in a row.
 */
const SEQUENCE = [0, 1, 2, 3, 0, 2, 1, 3, 2, 0, 3, 1];

/**
 * One round: every server answers `requests`, in slices of about a second in the order
 * of SEQUENCE (begun at a different place each round). Others' work on a shared machine comes in
 * bursts of seconds: so short and so interleaved, the slices of every server meet the same bursts,
 * and each server's sum over its slices is taken in the same conditions. Returns each server's
 * figures over its slices.
 */
async function runRound(targets: Record<Server, Target>, requests: number, seconds: number, n: number, rounds: number): Promise<Record<Server, LoadFigures>> {
  const slots = SEQUENCE.length * Math.max(1, Math.round((2 * seconds * SERVERS.length) / SLICE_SECONDS / SEQUENCE.length));
  const slice = Math.ceil((requests * SERVERS.length) / slots);
  log(`observability round ${n + 1} of ${rounds}: ${slots / SERVERS.length} slices of ${slice} requests for each server, in turn`);
  const slices = new Map<Server, LoadFigures[]>(SERVERS.map((name) => [name, []]));
  for (let slot = 0; slot < slots; slot++) {
    const name = SERVERS[SEQUENCE[(slot + n) % SEQUENCE.length]!]!;
    slices.get(name)!.push(await loadRequests(targets[name], slice));
  }
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

/**
 * Fresh servers for a round, one of each kind, named after the round (their logs, their profiles),
 * started one after the other in an order that turns from round to round: the first of a machine's
 * processes to start may be served better (its memory, its database connections).
 */
async function launchServers(launch: LaunchVariant, envs: Record<Server, NodeJS.ProcessEnv>, n: number): Promise<Record<Server, Variant>> {
  const servers: Partial<Record<Server, Variant>> = {};
  try {
    for (const name of turned(SERVERS, n)) servers[name] = await launch(`${name}-${n + 1}`, envs[name], PRELOAD);
  } catch (error) {
    for (const server of Object.values(servers)) await server.stop();
    throw error;
  }
  return servers as Record<Server, Variant>;
}

/** `items` begun at its `n`-th (modulo its length). */
const turned = <T>(items: readonly T[], n: number): T[] => items.map((_, i) => items[(i + n) % items.length]!);

/** The estimate-5 request (made on the bench's own server) sent to each of a round's servers. */
function roundTargets(estimate: Target, servers: Record<Server, Variant>): Record<Server, Target> {
  const { databasePids: _database, ...request } = estimate;
  const target = (name: Server): Target => ({
    ...request,
    name: `estimate-5, ${LABELS[name]}`,
    pid: servers[name].pid,
    url: estimate.url.replace(/^http:\/\/[^/]+/, servers[name].base),
  });
  return { plain: target('plain'), control: target('control'), metrics: target('metrics'), tracing: target('tracing') };
}

/** Every server warmed up for `seconds` (in the round's order); the plain server's req/s. */
async function warmUpAll(targets: Record<Server, Target>, seconds: number, n: number): Promise<number> {
  let plainRps = 0;
  for (const name of turned(SERVERS, n)) {
    const rps = await warmUp(targets[name], seconds);
    if (name === 'plain') plainRps = rps;
  }
  return plainRps;
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
    // At its default sampling, whatever the bench's own environment says (src/observability/tracing.ts).
    tracing: {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_TRACES_SAMPLER: '',
      OTEL_TRACES_SAMPLER_ARG: '',
    },
  };
  try {
    let requests = 0;
    const perRound: Record<Server, LoadFigures>[] = [];
    for (let n = 0; n < rounds; n++) {
      const servers = await launchServers(launch, envs, n);
      try {
        const targets = roundTargets(estimate, servers);
        await warmUpAll(targets, Math.max(warmupSeconds, FRESH_WARMUP_SECONDS), n);
        if (n === 0) {
          // A second warm-up, of every server alike: the plain server's sizes the rounds.
          const plainRps = await warmUpAll(targets, seconds, n);
          requests = Math.max(2000, Math.round((2 * plainRps * seconds) / 1000) * 1000);
          log(
            `observability: ${requests} requests a round for each server (twice the plain server's ${Math.round(plainRps)} req/s in a warm-up × ${seconds} s)`,
          );
        }
        perRound.push(await runRound(targets, requests, seconds, n, rounds));
      } finally {
        for (const server of Object.values(servers)) await server.stop();
      }
    }
    const runs = (name: Compared) => perRound.map((round) => ({ variant: round[name], plain: round.plain }));
    return {
      requestsPerRound: requests,
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
