import { SignJWT } from 'jose';
import type { Config } from '../../config/config.js';

/** Signs an HS256 access token for a user with the local secret (development, tests, demos). */
export async function signAccessToken(
  jwt: Pick<Config['jwt'], 'secret' | 'jwksUrl' | 'issuer' | 'audience'>,
  userId: string,
  ttlSeconds = 3600,
  now = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  let builder = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds);
  if (jwt.issuer) builder = builder.setIssuer(jwt.issuer);
  if (jwt.audience) builder = builder.setAudience(jwt.audience);
  return builder.sign(new TextEncoder().encode(jwt.secret));
}
