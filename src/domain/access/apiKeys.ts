import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys: `sk_<mode>_<public id>_<secret>`. The public id (12 hex digits, 48 random bits) finds
 * the key's row and is shown in `prefix`; the secret (32 random bytes, base64url) is what proves
 * possession. The service keeps SHA-256 of the whole key: with 256 bits of randomness a fast hash
 * cannot be brute-forced, so a password KDF (which would cost milliseconds on every request) adds
 * nothing. `live` keys come from a production service, `test` keys from any other, so a key pasted
 * into the wrong environment is recognisable at a glance.
 */
export type ApiKeyMode = 'live' | 'test';

const KEY_SHAPE = /^sk_(live|test)_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKey {
  publicId: string;
  /** `sk_<mode>_<public id>`: shown in lists, useless on its own. */
  prefix: string;
  /** The whole key, returned once. */
  secret: string;
  secretHash: Buffer;
}

export function newApiKey(mode: ApiKeyMode): NewApiKey {
  const publicId = randomBytes(6).toString('hex');
  const prefix = `sk_${mode}_${publicId}`;
  const secret = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { publicId, prefix, secret, secretHash: hashApiKey(secret) };
}

/** True for a bearer written as an API key (whether or not it exists); a JWT never matches. */
export function looksLikeApiKey(bearer: string): boolean {
  return bearer.startsWith('sk_');
}

/** The public id of a well-formed key, or null. */
export function apiKeyPublicId(bearer: string): string | null {
  return KEY_SHAPE.exec(bearer)?.[2] ?? null;
}

function hashApiKey(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Compares the presented key's hash with the stored one in constant time. */
export function apiKeyMatches(bearer: string, storedHash: Buffer): boolean {
  const presented = hashApiKey(bearer);
  return presented.length === storedHash.length && timingSafeEqual(presented, storedHash);
}
