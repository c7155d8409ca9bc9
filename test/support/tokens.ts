/**
 * Bearer tokens the server must accept or refuse: HS256 tokens as the development secret signs
 * them (or another key), unsigned ones, and a JWKS identity provider on loopback for production
 * mode (RS256, issuer and audience).
 */
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { type Config, loadConfig } from '../../src/config/config.js';
import { ids } from '../fixtures/world.js';
import { listen } from './http.js';
import { testConfig } from './server.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const developmentSecret = new TextEncoder().encode(testConfig.jwt.secret);

/** An HS256 token (by default customer A's, signed with the development secret, valid for 10 minutes). */
export function hs256Token(claims: { sub?: string; iat?: number; exp?: number } = {}, key: Uint8Array = developmentSecret): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub ?? ids.userA)
    .setIssuedAt(claims.iat ?? nowSeconds())
    .setExpirationTime(claims.exp ?? nowSeconds() + 600)
    .sign(key);
}

/** A token with `alg: none` and no signature: it must never be accepted. */
export function unsignedToken(sub: string = ids.userA): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub, exp: nowSeconds() + 600 })}.`;
}

export interface JwksProvider {
  /** The server's configuration for this provider (JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE), response validation on. */
  config: Config;
  issuer: string;
  audience: string;
  /** An RS256 token for customer A by the provider's key (`kid` k1), or by `key` (a key the JWKS does not hold). */
  sign(claims?: { iss?: string; aud?: string; sub?: string; exp?: number }, key?: CryptoKey): Promise<string>;
  close(): Promise<void>;
}

/** An identity provider serving one RS256 key at /.well-known/jwks.json on loopback. */
export async function startJwksProvider(): Promise<JwksProvider> {
  const issuer = 'https://id.payroll.example/';
  const audience = 'payroll-api';
  const keys = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const jwks = await listen((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
  const jwksUrl = `${jwks.url}/.well-known/jwks.json`;
  return {
    config: loadConfig({ NODE_ENV: 'test', VALIDATE_RESPONSES: 'true', JWT_JWKS_URL: jwksUrl, JWT_ISSUER: issuer, JWT_AUDIENCE: audience }),
    issuer,
    audience,
    sign: (claims = {}, key = keys.privateKey) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject(claims.sub ?? ids.userA)
        .setIssuer(claims.iss ?? issuer)
        .setAudience(claims.aud ?? audience)
        .setIssuedAt(nowSeconds() - 60)
        .setExpirationTime(claims.exp ?? nowSeconds() + 300)
        .sign(key),
    close: () => jwks.close(),
  };
}
