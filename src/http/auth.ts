import { type JWTVerifyGetKey, createRemoteJWKSet, jwtVerify } from 'jose';
import type { Config } from '../config.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { type Principal, findPrincipal } from '../usecases/principal.js';

/** A 401 the error handler turns into the UNAUTHORIZED envelope; `status` is read by the validator. */
export class AuthenticationError extends Error {
  readonly status = 401;
}

export const BEARER_REQUIRED = 'A bearer token is required: Authorization: Bearer <ACCESS_TOKEN>';

export type Authenticate = (authorizationHeader: string | undefined) => Promise<Principal>;

/** How long a verified token's principal is reused before the signature and the user are checked again. */
const PRINCIPAL_CACHE_TTL_MS = 5_000;
/** Distinct tokens remembered at most (the oldest entry makes room); a few MB at worst. */
const PRINCIPAL_CACHE_ENTRIES = 10_000;

/**
 * Bearer JWT verification with jose: HS256 with JWT_SECRET (embedded default), or a JWKS URL
 * with issuer and audience (production). The token's `sub` is a user id; the user's role and
 * customer come from the database, so a token never outlives the user it names.
 *
 * A verified token's principal is kept for `cacheTtlMs` (5 s), never past the token's own `exp`:
 * the signature check and the user lookup (a database round trip) then run once per token every
 * few seconds instead of on every request. The price: a user deleted or given another role in the
 * database is noticed within those 5 s rather than at once (there is no token revocation list to
 * weaken; jose's remote JWKS set itself caches keys for minutes). An expired token is refused at
 * its exact expiry, cached or not. `cacheTtlMs` 0 turns the cache off.
 */
export function createAuthenticator(jwt: Config['jwt'], deps: Pick<UseCaseDeps, 'db'>, cacheTtlMs = PRINCIPAL_CACHE_TTL_MS): Authenticate {
  // HS256: the secret is imported as a CryptoKey once, not by jose on every verification.
  const key: Promise<CryptoKey> | JWTVerifyGetKey = jwt.jwksUrl
    ? createRemoteJWKSet(new URL(jwt.jwksUrl))
    : crypto.subtle.importKey('raw', new TextEncoder().encode(jwt.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const options = {
    ...(jwt.jwksUrl ? {} : { algorithms: ['HS256'] }),
    ...(jwt.issuer && { issuer: jwt.issuer }),
    ...(jwt.audience && { audience: jwt.audience }),
  };
  const cache = new Map<string, { principal: Principal; until: number }>();
  return async (authorizationHeader) => {
    const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorizationHeader ?? '')?.[1];
    if (!token) throw new AuthenticationError(BEARER_REQUIRED);
    const now = Date.now();
    const cached = cache.get(token);
    if (cached && cached.until > now) return cached.principal;
    if (cached) cache.delete(token);
    let subject: string | undefined;
    let expiresAtMs = Infinity;
    try {
      const verified = await (typeof key === 'function' ? jwtVerify(token, key, options) : jwtVerify(token, await key, options));
      subject = verified.payload.sub;
      if (verified.payload.exp !== undefined) expiresAtMs = verified.payload.exp * 1000;
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw new AuthenticationError(expired ? 'The access token has expired' : 'The access token is invalid');
    }
    if (!subject || !/^[0-9a-f-]{36}$/i.test(subject)) throw new AuthenticationError('The access token is invalid');
    const principal = await findPrincipal(deps, subject);
    if (!principal) throw new AuthenticationError('The access token is invalid');
    if (cacheTtlMs > 0) {
      if (cache.size >= PRINCIPAL_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(token, { principal, until: Math.min(now + cacheTtlMs, expiresAtMs) });
    }
    return principal;
  };
}
