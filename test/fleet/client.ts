/**
 * The fleet test's HTTP client: a load balancer and a careful customer in one. Each call goes to
 * the next API instance in turn; when the connection fails it tries the next one with the same
 * Idempotency-Key, as a client behind a load balancer would. Everything it sees is recorded: every
 * 5xx, every connection error (explained when its instance was killed meanwhile or was down, a
 * finding otherwise), every retry, and the first answer to every Idempotency-Key, which the test
 * replays on another instance at the end.
 */
import { request } from 'node:http';
import { isDeepStrictEqual } from 'node:util';

/** One API instance as the client sees it; the fleet bumps `generation` at each kill. */
export interface Instance {
  name: string;
  url: string;
  up: boolean;
  generation: number;
}

export interface Answer {
  status: number;
  json: unknown;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  /** The instance that answered. */
  instance: number;
}

/** A call's answer under an Idempotency-Key, to replay on another instance at the end. */
interface Keyed {
  method: string;
  path: string;
  userId: string;
  key: string;
  body: unknown;
  first: Answer;
}

export interface Finding {
  at: string;
  what: string;
}

const CALL_TIMEOUT_MS = 20_000;
const MAX_ATTEMPTS = 12;

export class FleetClient {
  private next = 0;
  readonly keyed: Keyed[] = [];
  /** What fails the test: a 5xx, a connection error on a live instance, a timeout, an exhausted retry. */
  readonly findings: Finding[] = [];
  readonly counts = { calls: 0, attempts: 0, killedConnectionErrors: 0, inProgressRetries: 0, retryAfter503: 0 };
  /** After this instant (ms since the epoch) no call is tried again: the run is bounded whatever the fleet does. */
  giveUpAt = Number.POSITIVE_INFINITY;
  /** Attempts of one call; a database failover (test/failover/) answers 503 for longer than a process restart. */
  maxAttempts = MAX_ATTEMPTS;

  constructor(
    private readonly instances: Instance[],
    private readonly token: (userId: string) => Promise<string>,
  ) {}

  /** One logical call: retried on another instance after a connection error, or while its key is in progress. */
  async call(method: string, path: string, userId: string, body?: unknown, key?: string): Promise<Answer> {
    this.counts.calls++;
    let target = this.next++ % this.instances.length;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++, target = (target + 1) % this.instances.length) {
      if (attempt > 1 && Date.now() > this.giveUpAt) break;
      const instance = this.instances[target]!;
      const generation = instance.generation;
      const wasUp = instance.up;
      this.counts.attempts++;
      try {
        const answer = await this.send(target, method, path, userId, body, key);
        const retryAfter = Number(answer.headers['retry-after']);
        if (answer.status === 503 && errorCode(answer) === 'SERVICE_UNAVAILABLE' && retryAfter > 0) {
          // The documented load shedding (a customer's operations queued past their share, a lock
          // wait): nothing was done, and the client tries again after Retry-After, as the docs say.
          this.counts.retryAfter503++;
          await pause(Math.min(retryAfter * 1000, 2000));
          continue;
        }
        if (answer.status >= 500) {
          // A finding, then retried as a client would (a 5xx is not stored under its key), so that
          // one run shows every other problem too.
          this.finding(`${method} ${routeOf(path)} → ${answer.status} ${errorCode(answer) ?? ''} from a live instance`);
          await pause(300);
          continue;
        }
        if (answer.status === 409 && errorCode(answer) === 'IDEMPOTENCY_KEY_IN_PROGRESS') {
          this.counts.inProgressRetries++;
          await pause(500);
          continue;
        }
        if (key) this.keyed.push({ method, path, userId, key, body, first: answer });
        return answer;
      } catch (error) {
        const killed = !wasUp || !instance.up || instance.generation !== generation;
        if (killed) this.counts.killedConnectionErrors++;
        else this.finding(`${method} ${routeOf(path)}: ${describe(error)} from an instance that was not killed`);
        await pause(killed ? 100 : 300);
      }
    }
    this.finding(`${method} ${routeOf(path)}: no answer after ${this.maxAttempts} attempts or by the deadline`);
    throw new Error(`${method} ${path}: no answer after ${this.maxAttempts} attempts or by the deadline`);
  }

  /**
   * Sends every keyed call again to an instance other than the one that answered it: each must
   * answer exactly as it first did (status and body). Returns the mismatches.
   */
  async replayKeys(withinMs: number): Promise<string[]> {
    const mismatches: string[] = [];
    const deadline = Date.now() + withinMs;
    for (const [index, call] of this.keyed.entries()) {
      if (Date.now() > deadline) {
        mismatches.push(`${this.keyed.length - index} keys not replayed within ${withinMs} ms`);
        break;
      }
      const other = (call.first.instance + 1) % this.instances.length;
      const again = await this.send(other, call.method, call.path, call.userId, call.body, call.key).catch((error: unknown) => error as Error);
      if (again instanceof Error) {
        mismatches.push(`${call.method} ${call.path} key ${call.key}: no answer on replay (${describe(again)})`);
        continue;
      }
      if (again.status !== call.first.status || !isDeepStrictEqual(again.json, call.first.json)) {
        mismatches.push(
          `${call.method} ${call.path} key ${call.key}: first ${call.first.status} ${call.first.text.slice(0, 200)}, again ${again.status} ${again.text.slice(0, 200)}`,
        );
      }
    }
    return mismatches;
  }

  /** The findings grouped: each distinct one with its count and the time it was first seen. */
  findingSummary(): string[] {
    const seen = new Map<string, { n: number; first: string }>();
    for (const { at, what } of this.findings) seen.set(what, { n: (seen.get(what)?.n ?? 0) + 1, first: seen.get(what)?.first ?? at });
    return [...seen].map(([what, { n, first }]) => `${n} × ${what} (first at ${first})`);
  }

  private finding(what: string): void {
    this.findings.push({ at: new Date().toISOString(), what });
  }

  private async send(target: number, method: string, path: string, userId: string, body: unknown, key: string | undefined): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.token(userId)}` };
    if (key) headers['idempotency-key'] = key;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const { status, text, headers: answerHeaders } = await rawRequest(`${this.instances[target]!.url}${path}`, method, headers, payload);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status, json, text, headers: answerHeaders, instance: target };
  }
}

/**
 * One request on a connection of its own (no keep-alive: a reused socket that the server closes
 * as it is reused would look like a failure of a live instance).
 */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  payload?: string,
  timeoutMs = CALL_TIMEOUT_MS,
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), headers: res.headers }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export const errorCode = (answer: Answer): string | undefined => (answer.json as { error?: { code?: string } } | undefined)?.error?.code;

/** The `data` of an answer with the expected status; throws with the answer otherwise. */
export function dataOf<T>(answer: Answer, status: number, what: string): T {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 400)}`);
  return (answer.json as { data: T }).data;
}

const describe = (error: unknown): string => {
  const failure = error as { code?: string; message?: string };
  return failure.code ?? failure.message ?? String(error);
};

/** A path with its ids replaced by `{id}`, so that findings group by operation. */
const routeOf = (path: string): string => path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{id}');

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
