import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';
import { UUID_PATTERN_BODY } from '../ids.js';

const FEE_HASH_BYTES = 32;
/**
 * Random bytes are drawn from the kernel a page at a time, as crypto.randomUUID draws its own: one
 * system call per 128 feeHashes instead of one each, a system call being dearer than the rest of
 * making the hash. Each byte is handed out once.
 */
const randomPool = Buffer.alloc(FEE_HASH_BYTES * 128);
let randomPoolUsed = randomPool.length;

/** A payroll feeHash: 256 random bits, base64url. It is a lookup key, not a signature. */
export function newPayrollFeeHash(): string {
  if (randomPoolUsed + FEE_HASH_BYTES > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  const hash = randomPool.toString('base64url', randomPoolUsed, randomPoolUsed + FEE_HASH_BYTES);
  randomPoolUsed += FEE_HASH_BYTES;
  return hash;
}

/** expiresAt = now + ttl. */
export function feeHashExpiry(now: Date, ttlSeconds: number): Date {
  return new Date(now.getTime() + ttlSeconds * 1000);
}

/**
 * A payout feeHash: `<estimateId>:<expiresAtUnixSeconds>:<signature>`, the signature an
 * HMAC-SHA256 over the first two parts and the locked figures. It can be checked for forgery
 * and expiry without a database read; single use is enforced where the payout is created.
 */
export function signPayoutFeeHash(secret: string, estimateId: string, expiresAt: Date, lockedFigures: string): string {
  const head = `${estimateId}:${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${head}:${payoutSignature(secret, head, lockedFigures)}`;
}

/** The estimate's id, its expiry in seconds and the signature (43 base64url characters of a SHA-256). */
const PAYOUT_FEE_HASH = new RegExp(`^(${UUID_PATTERN_BODY}):([0-9]{1,12}):([A-Za-z0-9_-]{43})$`);

export type PayoutFeeHashCheck = { ok: true; estimateId: string; expiresAt: Date } | { ok: false; reason: 'MALFORMED' | 'BAD_SIGNATURE' | 'EXPIRED' };

export function verifyPayoutFeeHash(secret: string, feeHash: string, lockedFigures: string, now: Date): PayoutFeeHashCheck {
  const match = PAYOUT_FEE_HASH.exec(feeHash);
  if (!match) return { ok: false, reason: 'MALFORMED' };
  const [, estimateId = '', expiresAtSeconds = '', signature = ''] = match;
  const expected = Buffer.from(payoutSignature(secret, `${estimateId}:${expiresAtSeconds}`, lockedFigures));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'BAD_SIGNATURE' };
  const expiresAt = new Date(Number(expiresAtSeconds) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'EXPIRED' };
  return { ok: true, estimateId, expiresAt };
}

function payoutSignature(secret: string, head: string, lockedFigures: string): string {
  return createHmac('sha256', secret).update(`${head}|${lockedFigures}`).digest('base64url');
}
