/**
 * Webhook signatures (`Payroll-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
 * Stripe's scheme), checked on Web Crypto (`crypto.subtle`) so that the package runs on Node 20 or
 * later, Deno, Bun, browsers and edge runtimes alike: nothing here imports a `node:` module. Web
 * Crypto is asynchronous; the synchronous check is in the Node entry point (webhooksNode.ts).
 */
import type { components } from 'payroll-fee-service/types';

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

/** HMAC-SHA256 of `payload` under `secret`, in hex, computed synchronously (Node's `crypto`). */
export type HmacSha256Hex = (secret: string, payload: string) => string;

const subtleHmacSha256Hex = async (secret: string, payload: string): Promise<string> => {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(payload)));
};

/** A delivery's signatures and the text they sign, once its header is well formed and its timestamp within tolerance. */
interface Signed {
  payload: string;
  signatures: string[];
}

function signedParts(body: string, header: string | null | undefined, secret: string, options: ConstructEventOptions): Signed {
  // A missing secret is the receiver's configuration at fault, not the delivery; Web Crypto refuses an empty key anyway.
  if (typeof secret !== 'string' || secret === '') throw new TypeError('the endpoint secret must be a non-empty string');
  const { t, signatures } = parseHeader(header);
  checkAge(t, options.toleranceSeconds ?? 300, options.now ?? new Date());
  return { payload: `${t}.${body}`, signatures };
}

function requireMatch(signatures: string[], expected: string): void {
  if (!signatures.some((candidate) => equalHex(candidate, expected))) {
    throw new WebhookSignatureError('BAD_SIGNATURE', 'no v1 signature matches the body and the secret');
  }
}

/** A check's boolean form: false for a refused delivery, any other failure thrown on. */
function falseIfRefused(error: unknown): false {
  if (error instanceof WebhookSignatureError) return false;
  throw error;
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
 * Verifies a delivery and returns its event, on Web Crypto (any runtime): `body` is the raw request
 * body exactly as received (before any JSON parsing), `header` the `Payroll-Signature` header,
 * `secret` the endpoint's `whsec_…` secret. Throws a {@link WebhookSignatureError} saying why otherwise.
 *
 * ```ts
 * const event = await constructEventAsync(rawBody, request.headers.get('payroll-signature'), secret);
 * ```
 */
export async function constructEventAsync(
  body: string,
  header: string | null | undefined,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<WebhookEvent> {
  const { payload, signatures } = signedParts(body, header, secret, options);
  requireMatch(signatures, await subtleHmacSha256Hex(secret, payload));
  return parseEvent(body);
}

/** {@link constructEventAsync} under its first name: the same checks, asynchronous too, on Web Crypto. */
export function constructEvent(body: string, header: string | null | undefined, secret: string, options: ConstructEventOptions = {}): Promise<WebhookEvent> {
  return constructEventAsync(body, header, secret, options);
}

/**
 * Checks a Payroll-Signature header against the raw body, on Web Crypto (any runtime): true only
 * when a v1 signature matches and the timestamp is within `toleranceSeconds` of now.
 */
export async function verifyWebhookAsync(body: string, header: string, secret: string, toleranceSeconds = 300, now: Date = new Date()): Promise<boolean> {
  try {
    const { payload, signatures } = signedParts(body, header, secret, { toleranceSeconds, now });
    requireMatch(signatures, await subtleHmacSha256Hex(secret, payload));
    return true;
  } catch (error) {
    return falseIfRefused(error);
  }
}

/**
 * The synchronous checks, given an HMAC that is synchronous where the runtime has one (Node's
 * `crypto`, in the Node entry point): the same header, tolerance and comparison as above.
 */
export function constructEventWith(
  hmac: HmacSha256Hex,
  body: string,
  header: string | null | undefined,
  secret: string,
  options: ConstructEventOptions = {},
): WebhookEvent {
  const { payload, signatures } = signedParts(body, header, secret, options);
  requireMatch(signatures, hmac(secret, payload));
  return parseEvent(body);
}

export function verifyWebhookWith(hmac: HmacSha256Hex, body: string, header: string, secret: string, toleranceSeconds = 300, now: Date = new Date()): boolean {
  try {
    const { payload, signatures } = signedParts(body, header, secret, { toleranceSeconds, now });
    requireMatch(signatures, hmac(secret, payload));
    return true;
  } catch (error) {
    return falseIfRefused(error);
  }
}
