/// <reference types="node" />
/**
 * The synchronous webhook checks, where Node's `crypto` is present: Web Crypto has no synchronous
 * HMAC, so these exist only in the package's Node entry point (`payroll-fee-service` under Node's
 * `node` export condition, or `payroll-fee-service/node`), never in what other runtimes load.
 */
import { createHmac } from 'node:crypto';
import { type ConstructEventOptions, type WebhookEvent, constructEventWith, verifyWebhookWith } from './webhooks.js';

const nodeHmacSha256Hex = (secret: string, payload: string): string => createHmac('sha256', secret).update(payload).digest('hex');

/**
 * Verifies a delivery and returns its event, synchronously: {@link constructEventAsync}'s checks and
 * refusals on Node's `crypto`.
 */
export function constructEventSync(body: string, header: string | null | undefined, secret: string, options: ConstructEventOptions = {}): WebhookEvent {
  return constructEventWith(nodeHmacSha256Hex, body, header, secret, options);
}

/**
 * Checks a Payroll-Signature header against the raw body, synchronously: true only when a v1
 * signature matches and the timestamp is within `toleranceSeconds` of now.
 *
 * @deprecated Use {@link constructEventSync} (or `constructEventAsync` on any runtime), which says why a delivery is refused and returns the typed event.
 */
export function verifyWebhook(body: string, header: string, secret: string, toleranceSeconds = 300, now: Date = new Date()): boolean {
  return verifyWebhookWith(nodeHmacSha256Hex, body, header, secret, toleranceSeconds, now);
}
