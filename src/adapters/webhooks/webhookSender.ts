import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressProblem, parseAddress } from '../../domain/webhooks/publicAddress.js';

export interface DeliveryResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** How a webhook delivery leaves the service. */
export interface WebhookSender {
  send(request: { url: string; body: string; headers: Record<string, string> }): Promise<DeliveryResult>;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to. Tests inject their own (a public-looking name → 127.0.0.1). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address, in its order. */
const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** A delivery refused before any connection: the reason is recorded on the attempt. */
class Refused extends Error {}

/**
 * HTTP POST with a 5 s timeout, to a public address only. At every attempt the host is resolved
 * once and EVERY address it resolves to is checked (publicAddress.ts: public unicast only; loopback
 * too when `allowLoopback`, development and tests): a name that resolves to anything else is
 * refused without a connection, and the reason is the attempt's error. The connection then goes to
 * the first checked address — the socket's lookup is pinned to it, so no second resolution can
 * hand out another (DNS rebinding) — while TLS still verifies the certificate against the name.
 * A new connection per delivery (no pooled socket), and redirects are never followed (a 3xx is a
 * failed attempt), so a receiver cannot bounce our signed payloads to another host.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly resolve: Resolver;
  private readonly timeoutMs: number;

  constructor(private readonly options: { allowLoopback: boolean; resolve?: Resolver; timeoutMs?: number }) {
    this.resolve = options.resolve ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  async send(request: { url: string; body: string; headers: Record<string, string> }): Promise<DeliveryResult> {
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    const url = new URL(request.url);
    let target: ResolvedAddress;
    try {
      target = await this.checkedAddress(url.hostname);
    } catch (error) {
      return { statusCode: null, error: error instanceof Refused ? error.message : `could not resolve ${url.hostname}`, durationMs: durationMs() };
    }
    try {
      const statusCode = await this.post(url, target, request);
      return { statusCode, error: statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`, durationMs: durationMs() };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      return { statusCode: null, error: timedOut ? `no answer within ${this.timeoutMs} ms` : 'connection failed', durationMs: durationMs() };
    }
  }

  /** The address to connect to, after checking every address of the host; throws Refused. */
  private async checkedAddress(hostname: string): Promise<ResolvedAddress> {
    const bare = hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = parseAddress(bare);
    const addresses: ResolvedAddress[] = literal ? [{ address: bare, family: literal.kind() === 'ipv6' ? 6 : 4 }] : await this.resolve(bare);
    if (addresses.length === 0) throw new Refused(`refused: ${bare} resolves to no address`);
    for (const { address } of addresses) {
      const parsed = parseAddress(address);
      const problem = parsed ? addressProblem(parsed, this.options.allowLoopback) : `${address} is not an IP address`;
      if (problem) throw new Refused(`refused: ${bare} resolves to ${address}, which is not public (${problem}); only public unicast addresses are allowed`);
    }
    return addresses[0]!;
  }

  private post(url: URL, target: ResolvedAddress, request: { body: string; headers: Record<string, string> }): Promise<number> {
    // The one address checked, whatever the socket asks for: no second lookup.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    return new Promise<number>((resolve, reject) => {
      const outgoing = (url.protocol === 'https:' ? https : http).request(
        {
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
          lookup: pinned,
          agent: false,
          signal: AbortSignal.timeout(this.timeoutMs),
        },
        (response) => {
          response.resume(); // the body is not read: only the status counts
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('close', () => response.complete || reject(new Error('the answer was cut off')));
        },
      );
      outgoing.on('error', (error) => reject(error.name === 'AbortError' && (error.cause as Error | undefined)?.name === 'TimeoutError' ? error.cause : error));
      outgoing.end(request.body);
    });
  }
}
