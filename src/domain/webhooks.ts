import { randomBytes } from 'node:crypto';

// Signing and checking live in one module, client/webhooks.ts, published in the client package so
// that a receiver's check can never drift from how the service signs: import them from there.

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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Endpoint URLs: https, to a public host. Plain http is accepted only for loopback hosts and only
 * when the service allows loopback (development and tests). Returns a problem, or null.
 */
export function webhookUrlProblem(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'body.url is not a valid URL';
  }
  if (url.username || url.password) return 'body.url must not carry credentials';
  const host = url.hostname.toLowerCase();
  const loopback = LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
  if (loopback) return allowLoopback ? (['http:', 'https:'].includes(url.protocol) ? null : 'body.url must be http or https') : 'body.url must not point at a loopback address';
  if (url.protocol !== 'https:') return 'body.url must use https';
  if (isPrivateAddress(host)) return 'body.url must not point at a private network address';
  return null;
}

function isPrivateAddress(host: string): boolean {
  if (/^10\./.test(host) || /^192\.168\./.test(host) || /^169\.254\./.test(host) || /^0\./.test(host)) return true;
  const match = /^172\.(\d+)\./.exec(host);
  if (match && Number(match[1]) >= 16 && Number(match[1]) <= 31) return true;
  return host.startsWith('[fc') || host.startsWith('[fd') || host.startsWith('[fe80');
}
