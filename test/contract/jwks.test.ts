import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer } from '../support/server.js';

// Production mode: tokens from an identity provider, checked against its JWKS, issuer and audience.
let jwks: Server;
let server: TestServer;
let privateKey: CryptoKey;
const issuer = 'https://id.payroll.example/';
const audience = 'payroll-api';

beforeAll(async () => {
  const keys = await generateKeyPair('RS256');
  privateKey = keys.privateKey;
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwks = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
  const config = loadConfig({ NODE_ENV: 'test', JWT_JWKS_URL: jwksUrl, JWT_ISSUER: issuer, JWT_AUDIENCE: audience });
  server = await startTestServer({ config });
});
afterAll(async () => {
  await server.close();
  jwks.close();
});

const sign = (claims: { iss?: string; aud?: string; sub?: string }) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject(claims.sub ?? ids.userA)
    .setIssuer(claims.iss ?? issuer)
    .setAudience(claims.aud ?? audience)
    .setExpirationTime('5m')
    .sign(privateKey);

async function read(token: string) {
  return server.client.GET('/v1/customers/payroll/requests/{requestId}', {
    params: { path: { requestId: ids.requestACompleted } },
    headers: { Authorization: `Bearer ${token}` },
  });
}

describe('bearer authentication with a JWKS URL, issuer and audience', () => {
  it('accepts a token signed by a key of the JWKS with the right issuer and audience', async () => {
    expect((await read(await sign({}))).response.status).toBe(200);
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example/' }],
    ['another audience', { aud: 'someone-else' }],
  ])('401 for %s', async (_case, claims) => {
    const { response, error } = await read(await sign(claims));
    expect(response.status).toBe(401);
    expect(error?.error.code).toBe('UNAUTHORIZED');
  });

  it('401 for an HS256 token signed with the development secret', async () => {
    const { response } = await read(await server.token(ids.userA));
    expect(response.status).toBe(401);
  });
});
