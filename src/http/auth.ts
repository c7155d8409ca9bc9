import { type JWTVerifyGetKey, createRemoteJWKSet, jwtVerify } from 'jose';
import type { Config } from '../config.js';
import type { Database } from '../store/db.js';
import { findUser } from '../store/referenceData.js';
import type { Principal } from '../usecases/principal.js';

/** A 401 the error handler turns into the UNAUTHORIZED envelope; `status` is read by the validator. */
export class AuthenticationError extends Error {
  readonly status = 401;
}

export const BEARER_REQUIRED = 'A bearer token is required: Authorization: Bearer <ACCESS_TOKEN>';

export type Authenticate = (authorizationHeader: string | undefined) => Promise<Principal>;

/**
 * Bearer JWT verification with jose: HS256 with JWT_SECRET (embedded default), or a JWKS URL
 * with issuer and audience (production). The token's `sub` is a user id; the user's role and
 * customer come from the database, so a token never outlives the user it names.
 */
export function createAuthenticator(jwt: Config['jwt'], db: Database): Authenticate {
  const key: Uint8Array | JWTVerifyGetKey = jwt.jwksUrl ? createRemoteJWKSet(new URL(jwt.jwksUrl)) : new TextEncoder().encode(jwt.secret);
  const options = {
    ...(jwt.jwksUrl ? {} : { algorithms: ['HS256'] }),
    ...(jwt.issuer && { issuer: jwt.issuer }),
    ...(jwt.audience && { audience: jwt.audience }),
  };
  return async (authorizationHeader) => {
    const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorizationHeader ?? '')?.[1];
    if (!token) throw new AuthenticationError(BEARER_REQUIRED);
    let subject: string | undefined;
    try {
      const verified = await (typeof key === 'function' ? jwtVerify(token, key, options) : jwtVerify(token, key, options));
      subject = verified.payload.sub;
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw new AuthenticationError(expired ? 'The access token has expired' : 'The access token is invalid');
    }
    if (!subject || !/^[0-9a-f-]{36}$/i.test(subject)) throw new AuthenticationError('The access token is invalid');
    const user = await findUser(db, subject);
    if (!user) throw new AuthenticationError('The access token is invalid');
    return { userId: user.id, role: user.role, customerId: user.customer_id };
  };
}
