/**
 * Webhook signatures (`Payroll-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
 * Stripe's scheme), checked on Web Crypto (`crypto.subtle`) so that the package runs on Node 20 or
 * later, Deno, Bun, browsers and edge runtimes alike: nothing here imports a `node:` module.
 */
import type { components } from 'payroll-fee-service/types';
import { hmacSha256Hex } from './sha256.js';

/** The body of every delivery: `type` tells which resource `data` is. */
export type WebhookEvent = components['schemas']['WebhookEvent'];

/** Why a delivery was refused: the header or body is not what we send, the timestamp is out of tolerance, or the HMAC differs. */
export type WebhookSignatureFailure = 'MALFORMED' | 'TOO_OLD' | 'BAD_SIGNATURE';

/** Thrown by {@link constructEvent}: answer the delivery with a 4xx and do not act on it. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  readonly reason: WebhookSignatureFailure;

  constructor(reason: WebhookSignatureFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface ConstructEventOptions {
  /** How far the signature's timestamp may lie from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

interface ParsedHeader {
  t: number;
  signatures: string[];
}

function parseHeader(header: string | null | undefined): ParsedHeader {
  const fields = new Map<string, string[]>();
  for (const item of (header ?? '').split(',')) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    const key = item.slice(0, at).trim();
    fields.set(key, [...(fields.get(key) ?? []), item.slice(at + 1).trim()]);
  }
  const t = Number(fields.get('t')?.[0]);
  const signatures = (fields.get('v1') ?? []).filter((value) => /^[0-9a-f]{64}$/i.test(value));
  if (!Number.isInteger(t) || signatures.length === 0) {
    throw new WebhookSignatureError('MALFORMED', 'the Payroll-Signature header has no t=<unix seconds> or no v1=<64 hex digits>');
  }
  return { t, signatures: signatures.map((value) => value.toLowerCase()) };
}

function checkAge(t: number, toleranceSeconds: number, now: Date): void {
  const age = Math.round(now.getTime() / 1000 - t);
  if (Math.abs(age) > toleranceSeconds) {
    throw new WebhookSignatureError('TOO_OLD', `the signature's timestamp is ${age} s from now, beyond the tolerance of ${toleranceSeconds} s`);
  }
}

const toHex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** Compares two hex strings of the same length in time independent of where they differ. */
function equalHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

async function expectedSignature(secret: string, t: number, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(`${t}.${body}`)));
}

function parseEvent(body: string): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    throw new WebhookSignatureError('MALFORMED', 'the body is not JSON');
  }
  const fields = event as Partial<Record<'id' | 'type' | 'data', unknown>> | null;
  if (typeof fields !== 'object' || fields === null || typeof fields.id !== 'string' || typeof fields.type !== 'string' || typeof fields.data !== 'object') {
    throw new WebhookSignatureError('MALFORMED', 'the body is not a webhook event ({"id", "type", "occurredAt", "sequence", "data"})');
  }
  return event as WebhookEvent;
}

/**
 * Verifies a delivery and returns its event: `body` is the raw request body exactly as received
 * (before any JSON parsing), `header` the `Payroll-Signature` header, `secret` the endpoint's
 * `whsec_…` secret. Throws a {@link WebhookSignatureError} saying why otherwise.
 *
 * ```ts
 * const event = await constructEvent(rawBody, request.headers.get('payroll-signature'), secret);
 * ```
 */
export async function constructEvent(
  body: string,
  header: string | null | undefined,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<WebhookEvent> {
  const { t, signatures } = parseHeader(header);
  checkAge(t, options.toleranceSeconds ?? 300, options.now ?? new Date());
  const expected = await expectedSignature(secret, t, body);
  if (!signatures.some((candidate) => equalHex(candidate, expected))) {
    throw new WebhookSignatureError('BAD_SIGNATURE', 'no v1 signature matches the body and the secret');
  }
  return parseEvent(body);
}

/**
 * Checks a Payroll-Signature header against the raw body: true only when a v1 signature matches
 * and the timestamp is within `toleranceSeconds` of now.
 *
 * @deprecated Use {@link constructEvent}, which says why a delivery is refused and returns the typed event.
 */
export function verifyWebhook(body: string, header: string, secret: string, toleranceSeconds = 300, now: Date = new Date()): boolean {
  try {
    const { t, signatures } = parseHeader(header);
    checkAge(t, toleranceSeconds, now);
    const expected = hmacSha256Hex(secret, `${t}.${body}`);
    return signatures.some((candidate) => equalHex(candidate, expected));
  } catch (error) {
    if (error instanceof WebhookSignatureError) return false;
    throw error;
  }
}
