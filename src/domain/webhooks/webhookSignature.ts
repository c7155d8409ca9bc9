import { createHmac } from 'node:crypto';

/**
 * The `Payroll-Signature` header of a delivery, Stripe's scheme: `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">`. The client package checks it (`constructEvent`).
 */
export function signWebhook(body: string, secret: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}
