import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type JwksProvider, startJwksProvider } from '../support/tokens.js';

// Production mode: tokens from an identity provider, checked against its JWKS, issuer and audience.
let provider: JwksProvider;
let server: TestServer;

beforeAll(async () => {
  provider = await startJwksProvider();
  server = await startTestServer({ config: provider.config });
});
afterAll(async () => {
  await server.close();
  await provider.close();
});

async function read(token: string) {
  return server.client.GET('/v1/customers/payroll/requests/{requestId}', {
    params: { path: { requestId: ids.requestACompleted } },
    headers: { Authorization: `Bearer ${token}` },
  });
}

describe('bearer authentication with a JWKS URL, issuer and audience', () => {
  it('accepts a token signed by a key of the JWKS with the right issuer and audience', async () => {
    expect((await read(await provider.sign({}))).response.status).toBe(200);
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example/' }],
    ['another audience', { aud: 'someone-else' }],
  ])('401 for %s', async (_case, claims) => {
    const { response, error } = await read(await provider.sign(claims));
    expect(response.status).toBe(401);
    expect(error?.error.code).toBe('UNAUTHORIZED');
  });

  it('401 for an HS256 token signed with the development secret', async () => {
    const { response } = await read(await server.token(ids.userA));
    expect(response.status).toBe(401);
  });
});
