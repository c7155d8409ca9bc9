import { randomBytes } from 'node:crypto';
import { addressProblem, isLoopback, parseAddress } from './publicAddress.js';

/** A new endpoint secret: shown once, used to sign every delivery. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Retry schedule: full jitter over min(10 s × 2^(n−1), 6 h), for at least 3 days. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
export const FAILING_AFTER_CONSECUTIVE_FAILURES = 10;

export function nextAttemptDelayMs(attemptCount: number, random: () => number = Math.random): number {
  const ceiling = Math.min(10_000 * 2 ** Math.max(0, attemptCount - 1), 6 * 60 * 60 * 1000);
  // At least one second, so a failing endpoint is never hammered.
  return Math.max(1000, Math.floor(random() * ceiling));
}

/**
 * Names that can only be local (RFC 6761, RFC 8375, the `.internal` of cloud metadata services,
 * mDNS): never a public webhook host. A name without a dot is a local search-domain name too.
 */
const DEFAULT_HTTPS_PORT = 443;

const LOCAL_ONLY_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'localdomain', 'lan', 'intranet'];

/**
 * Endpoint URLs: https, to a public host. An address written in the URL must be public unicast
 * (publicAddress.ts: every range, every spelling — the URL parser has already turned decimal or
 * hex IPv4 into dotted quads); a name must not be one that can only be local. A name is checked
 * again at every delivery, against every address it then resolves to (adapters/webhooks/webhookSender.ts).
 * Plain http, and loopback, are accepted only when the service allows loopback (development and
 * tests), and then only for loopback hosts. The port must be one of `allowedPorts` (443 unless
 * the operator allows more), so that an endpoint cannot aim deliveries at a mail or SSH server of
 * a public host. Returns a problem, or null.
 */
export function webhookUrlProblem(raw: string, allowLoopback: boolean, allowedPorts: readonly number[] = [DEFAULT_HTTPS_PORT]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'body.url is not a valid URL';
  }
  if (url.username || url.password) return 'body.url must not carry credentials';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'body.url must use https';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const address = parseAddress(host);
  const loopback = address ? isLoopback(address) : host === 'localhost' || host.endsWith('.localhost');
  if (loopback && allowLoopback) return null;
  if (loopback) return 'body.url must not point at a loopback address';
  if (address) {
    const problem = addressProblem(address, false);
    if (problem) return `body.url must not point at a private network address (${problem}): only public unicast addresses are allowed`;
  } else if (!host.includes('.') || LOCAL_ONLY_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return `body.url must not point at a private network address (${host} can only be a local name)`;
  }
  if (url.protocol !== 'https:') return 'body.url must use https';
  const port = url.port === '' ? DEFAULT_HTTPS_PORT : Number(url.port);
  if (!allowedPorts.includes(port)) return `body.url must use a port HTTPS endpoints use (${allowedPorts.join(', ')}), not ${port}`;
  return null;
}
