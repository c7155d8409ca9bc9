import { createHmac, timingSafeEqual } from 'node:crypto';

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signWebhook(body: string, secret: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * Checks a Payroll-Signature header against the raw body: true only when a v1 signature matches
 * and the timestamp is within `toleranceSeconds` of now (a replayed old delivery is refused).
 */
export function verifyWebhook(body: string, header: string, secret: string, toleranceSeconds = 300, now: Date = new Date()): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [key, value] = item.split('=', 2);
    if (key && value) parts.set(key.trim(), [...(parts.get(key.trim()) ?? []), value.trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  return (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
