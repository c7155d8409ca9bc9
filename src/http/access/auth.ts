import { DomainError, type ErrorReason, forbidden } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import type { Request, RequestHandler, Response } from 'express';
import { type JWTPayload, type JWTVerifyGetKey, createRemoteJWKSet, jwtVerify } from 'jose';
import type { Config } from '../../config/config.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import { type Principal, findPrincipal } from '../../usecases/access/principal.js';
import { authenticateApiKey } from '../../usecases/access/apiKeys.js';
import { looksLikeApiKey } from '../../domain/access/apiKeys.js';
import { operationsOf } from '../pipeline/operationRouter.js';
import type { Authentication } from '../pipeline/locals.js';
import { requestFields } from '../pipeline/requestContext.js';

/**
 * A 401 the error handler turns into the UNAUTHORIZED envelope; `status` is read by the validator.
 * The validator answers with an error of its own, so the handler reads the reason from the
 * request's authentication (res.locals), where authenticateRequest kept this error.
 */
class AuthenticationError extends Error {
  readonly status = 401;

  constructor(
    readonly reason: ErrorReason,
    message: string,
  ) {
    super(message);
  }
}

type Refusal = { reason: ErrorReason; message: string };

export const BEARER_REQUIRED = 'A bearer token is required: Authorization: Bearer <ACCESS_TOKEN>';

export type Authenticate = (authorizationHeader: string | undefined) => Promise<Principal>;

/** How long a verified token's principal is reused before the signature and the user are checked again. */
const PRINCIPAL_CACHE_TTL_MS = 5_000;
/** Distinct tokens remembered at most (the oldest entry makes room); a few MB at worst. */
const PRINCIPAL_CACHE_ENTRIES = 10_000;
/** The scheme is case-insensitive (RFC 7235 §2.1): `Bearer`, `bearer`, `BEARER`. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i;

/**
 * Bearer authentication: an API key (`sk_…`, usecases/access/apiKeys.ts), or a JWT verified with jose: HS256 with JWT_SECRET (embedded default), or a JWKS URL
 * with issuer and audience (production). The token's `sub` is a user id; the user's role and
 * customer come from the database, so a token never outlives the user it names. A token must
 * carry `exp`, may not claim an `iat` or `nbf` further in the future than the clock skew
 * tolerated, and may not be valid for longer than the maximum lifetime (see tokenProblem).
 *
 * A verified token's principal is kept for `cacheTtlMs` (5 s), never past the token's own `exp`:
 * the signature check and the user lookup (a database round trip) then run once per token every
 * few seconds instead of on every request. The price: a user deleted or given another role in the
 * database is noticed within those 5 s rather than at once (there is no token revocation list to
 * weaken; jose's remote JWKS set itself caches keys for minutes). An expired token is refused at
 * its exact expiry, cached or not. `cacheTtlMs` 0 turns the cache off.
 */
export function createAuthenticator(jwt: Config['jwt'], deps: Pick<UseCaseDeps, 'db' | 'clock'>, cacheTtlMs = PRINCIPAL_CACHE_TTL_MS): Authenticate {
  const withJwt = jwtAuthenticator(jwt, deps, cacheTtlMs);
  return async (authorizationHeader) => {
    const token = BEARER.exec(authorizationHeader ?? '')?.[1];
    if (!token) throw new AuthenticationError('TOKEN_MISSING', BEARER_REQUIRED);
    // An API key is checked against the database on every request (never cached): a revoked key
    // is refused from the next request on.
    if (!looksLikeApiKey(token)) return withJwt(token);
    const outcome = await authenticateApiKey(deps, token);
    if ('principal' in outcome) return outcome.principal;
    throw new AuthenticationError(outcome.reason, outcome.message);
  };
}

/** A JWT's principal, verified once for the requests that bring it together, then cached (see createAuthenticator). */
function jwtAuthenticator(jwt: Config['jwt'], deps: Pick<UseCaseDeps, 'db'>, cacheTtlMs: number): (token: string) => Promise<Principal> {
  // HS256: the secret is imported as a CryptoKey once, not by jose on every verification.
  const key: Promise<CryptoKey> | JWTVerifyGetKey = jwt.jwksUrl
    ? createRemoteJWKSet(new URL(jwt.jwksUrl))
    : crypto.subtle.importKey('raw', new TextEncoder().encode(jwt.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const options = {
    ...(jwt.jwksUrl ? {} : { algorithms: ['HS256'] }),
    ...(jwt.issuer && { issuer: jwt.issuer }),
    ...(jwt.audience && { audience: jwt.audience }),
    requiredClaims: ['exp'],
    // Lets an `nbf` lie up to the skew ahead; `exp` and `iat` are checked exactly by tokenProblem.
    clockTolerance: jwt.clockSkewSeconds,
  };
  const cache = new Map<string, { principal: Principal; until: number }>();
  // Verifications under way, by token: the requests that arrive together with a token not (or no
  // longer) cached wait for one signature check and one user lookup, instead of every open
  // connection of a busy client running both each time its entry expires.
  const verifying = new Map<string, Promise<{ principal: Principal; until: number }>>();
  const verify = async (token: string, now: number): Promise<{ principal: Principal; until: number }> => {
    let payload: JWTPayload;
    try {
      payload = (await (typeof key === 'function' ? jwtVerify(token, key, options) : jwtVerify(token, await key, options))).payload;
    } catch (error) {
      const { reason, message } = verificationProblem(error as { code?: string; claim?: string });
      throw new AuthenticationError(reason, message);
    }
    const problem = tokenProblem(payload, now / 1000, jwt);
    if (problem) throw new AuthenticationError(problem.reason, problem.message);
    const subject = payload.sub;
    if (!isUuid(subject)) throw new AuthenticationError('TOKEN_INVALID', INVALID_TOKEN);
    const principal = await findPrincipal(deps, subject);
    if (!principal) throw new AuthenticationError('TOKEN_INVALID', INVALID_TOKEN);
    return { principal, until: Math.min(now + cacheTtlMs, payload.exp! * 1000) };
  };
  return async (token) => {
    const now = Date.now();
    const cached = cache.get(token);
    if (cached && cached.until > now) return cached.principal;
    if (cached) cache.delete(token);
    if (cacheTtlMs <= 0) return (await verify(token, now)).principal;
    let pending = verifying.get(token);
    if (!pending) {
      pending = verify(token, now);
      verifying.set(token, pending);
      // Settled either way: a refusal is not remembered, the next request checks the token again.
      const forget = () => void verifying.delete(token);
      pending.then((verified) => {
        forget();
        if (cache.size >= PRINCIPAL_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
        cache.set(token, verified);
      }, forget);
    }
    return (await pending).principal;
  };
}

const INVALID_TOKEN = 'The access token is invalid';

/** What to tell the caller about a token jose refused (never the token itself). */
function verificationProblem(error: { code?: string; claim?: string }): Refusal {
  if (error.code === 'ERR_JWT_EXPIRED') return { reason: 'TOKEN_EXPIRED', message: 'The access token has expired' };
  if (error.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && error.claim === 'exp')
    return { reason: 'TOKEN_INVALID', message: 'The access token has no valid exp claim' };
  if (error.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && error.claim === 'nbf')
    return { reason: 'TOKEN_NOT_YET_VALID', message: 'The access token is not valid yet' };
  return { reason: 'TOKEN_INVALID', message: INVALID_TOKEN };
}

/**
 * The lifetime rules jose leaves to us: expired at `exp` exactly (no skew: a token is never
 * accepted after its expiry), `iat` at most the skew in the future, and valid for at most the
 * maximum lifetime, counted from `iat` (from now when the token has none).
 */
function tokenProblem(payload: JWTPayload, nowSeconds: number, jwt: Config['jwt']): Refusal | null {
  const { exp, iat } = payload;
  if (exp === undefined || exp <= nowSeconds) return { reason: 'TOKEN_EXPIRED', message: 'The access token has expired' };
  if (iat !== undefined && iat > nowSeconds + jwt.clockSkewSeconds)
    return { reason: 'TOKEN_NOT_YET_VALID', message: 'The access token is issued in the future' };
  if (exp - (iat ?? nowSeconds) > jwt.maxLifetimeSeconds) {
    return { reason: 'TOKEN_LIFETIME_TOO_LONG', message: `The access token is valid for longer than the ${jwt.maxLifetimeSeconds} s allowed` };
  }
  return null;
}

/** What a failed authentication tells the caller (its reason and message), or null when the check itself failed (the database away). */
export function refusalOf(failure: unknown): Refusal | null {
  return failure instanceof AuthenticationError ? { reason: failure.reason, message: failure.message } : null;
}

/** Why the request's token was refused: its failure's reason, or no bearer token at all. */
export function unauthorizedReason(res: Response): ErrorReason {
  const failure = res.locals.authentication?.failure;
  return failure instanceof AuthenticationError ? failure.reason : 'TOKEN_MISSING';
}

/** The caller a request authenticated as (set by authenticateRequest), before any body is read. */
export function principalOf(res: Response): Principal | undefined {
  return res.locals.authentication?.principal;
}

/**
 * Authentication first, before the rate limit and the body: every request that carries an
 * Authorization header has its token checked (a cached check costs a map lookup), so the budget
 * is the verified user's and a body is only read in full for a verified caller. The outcome is
 * kept for the validator's bearerAuth handler (bearerAuthHandler), which answers 401 on the
 * operations that require a token.
 */
export function authenticateRequest(authenticate: Authenticate): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    let authentication: Authentication = {};
    if (header !== undefined) {
      try {
        authentication = { principal: await authenticate(header) };
      } catch (failure) {
        // The database away: 503 with Retry-After at once, as any other operation would answer.
        if (failure instanceof DomainError && failure.code === 'SERVICE_UNAVAILABLE') return next(failure);
        authentication = { failure };
      }
    }
    res.locals.authentication = authentication;
    next();
  };
}

/**
 * The validator's bearerAuth handler: the outcome of authenticateRequest, as a principal or a 401
 * (500 when the check itself failed). The roles an operation names in its security requirement
 * (`bearerAuth: [admin]`, as OpenAPI 3.1 lets a non-OAuth scheme list role names) are checked
 * here, before the request is validated against the spec, so that a refusal never depends on what
 * the body holds (and never says what a valid one would be); the use cases check roles again.
 */
export function bearerAuthHandler(): (req: Request, roles: readonly string[]) => Promise<boolean> {
  return async (req, roles) => {
    const res = req.res!;
    const { principal, failure } = res.locals.authentication ?? {};
    if (principal) {
      if (roles.length > 0 && !roles.includes(principal.role)) {
        // The validator keeps only a refusal's status: the refusal itself waits here for the error handler.
        res.locals.roleRefusal = forbidden(`This operation requires the ${roles.join(' or ')} role`, 'ROLE_NOT_ALLOWED');
        throw Object.assign(new Error('role not allowed'), { status: 403 });
      }
      res.locals.principal = principal;
      return true;
    }
    if (failure === undefined || failure instanceof AuthenticationError) throw failure ?? new AuthenticationError('TOKEN_MISSING', BEARER_REQUIRED);
    // Anything else (the database is down) is our failure, not the caller's: 500, not 401.
    operationsOf(req.app).logger.error({ err: failure, ...requestFields(res) }, 'authentication failed unexpectedly');
    throw Object.assign(new Error('authentication unavailable'), { status: 500 });
  };
}
