/**
 * Slow readers of a big request: four clients GET the finished 100,000-split request at once, each
 * reading its answer slowly (an admin's screen on a poor link), while another customer GETs its own
 * small request one call after another. Prints node's peak RSS while they read and the neighbour's
 * p50/p99 against the same GET with the server idle. Figures printed, not asserted.
 */
import http from 'node:http';
import { log } from './load.js';
import { memorySampler } from './processes.js';
import { mbOf } from './report.js';

export interface SlowReadersFigures {
  readers: number;
  /** Bytes of one reader's answer, and how long the slowest took to read it whole. */
  answerBytes: number;
  readSeconds: number;
  /** Each reader's answer was whole: the bytes its Content-Length announced, or (chunked) a body that ended, not one cut short. */
  complete: boolean;
  nodeRssMb: number;
  idle: { p50Ms: number; p99Ms: number; count: number };
  underReaders: { p50Ms: number; p99Ms: number; count: number };
}

interface Setup {
  base: string;
  pid: number;
  externalName: string | undefined;
  /** The big request and a token that may read it. */
  bigPath: string;
  bigToken: string;
  /** Another customer's small GET and its token. */
  smallPath: string;
  smallToken: string;
}

const READERS = 4;
/** Bytes a second each reader takes: a 100,000-split answer then takes about 20 s to read. */
const READ_RATE = 8 * 1024 * 1024;

/** One GET read at READ_RATE: the socket is paused after each chunk for as long as the rate asks. */
function slowGet(url: string, token: string): Promise<{ bytes: number; whole: boolean; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`slow reader: ${url} answered ${response.statusCode}`));
        const expected = response.headers['content-length'] === undefined ? null : Number(response.headers['content-length']);
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          const aheadMs = (bytes / READ_RATE) * 1000 - (performance.now() - started);
          if (aheadMs > 0) {
            response.pause();
            setTimeout(() => response.resume(), aheadMs);
          }
        });
        // A chunked body cut short ends with 'aborted' and never completes.
        response.on('end', () =>
          resolve({ bytes, whole: response.complete && (expected === null || bytes === expected), seconds: (performance.now() - started) / 1000 }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The small GET, one after another, until `done()` (and at least `minimum` times); latencies in ms. */
async function smallGets(setup: Setup, done: () => boolean, minimum: number): Promise<{ p50Ms: number; p99Ms: number; count: number }> {
  const latencies: number[] = [];
  while (!done() || latencies.length < minimum) {
    const started = performance.now();
    const response = await fetch(`${setup.base}${setup.smallPath}`, { headers: { authorization: `Bearer ${setup.smallToken}` } });
    await response.text();
    if (response.status !== 200) throw new Error(`small GET ${setup.smallPath}: ${response.status}`);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { p50Ms: round(quantile(latencies, 0.5)), p99Ms: round(quantile(latencies, 0.99)), count: latencies.length };
}

export async function slowReaders(setup: Setup): Promise<SlowReadersFigures> {
  const idleUntil = performance.now() + 5000;
  const idle = await smallGets(setup, () => performance.now() > idleUntil, 100);
  const memory = memorySampler(setup.pid, setup.externalName);
  let reading = true;
  const readers = Promise.all(Array.from({ length: READERS }, () => slowGet(`${setup.base}${setup.bigPath}`, setup.bigToken))).finally(() => {
    reading = false;
  });
  const [underReaders, answers] = await Promise.all([smallGets(setup, () => !reading, 100), readers]);
  const nodeRssKb = memory.phase();
  memory.stop();
  const figures: SlowReadersFigures = {
    readers: READERS,
    answerBytes: answers[0]!.bytes,
    readSeconds: Math.round(Math.max(...answers.map((a) => a.seconds)) * 10) / 10,
    complete: answers.every((a) => a.whole),
    nodeRssMb: mbOf(nodeRssKb),
    idle,
    underReaders,
  };
  log(`slow readers: ${JSON.stringify(figures)}`);
  return figures;
}
