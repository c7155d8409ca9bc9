import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../../src/http/access/auth.js';
import { signAccessToken } from '../../../src/http/access/tokens.js';
import type { Database } from '../../../src/store/database/db.js';

const USER = '7b1e0003-0000-4000-8000-000000000001';
const CUSTOMER = '7b1e0002-0000-4000-8000-000000000001';
/** The wall clock: API keys read it; the JWTs these tests sign are checked against the real time. */
const clock = () => new Date();
const jwt = {
  secret: 'a-test-secret-of-enough-length-0123456789',
  jwksUrl: undefined,
  issuer: undefined,
  audience: undefined,
  clockSkewSeconds: 30,
  maxLifetimeSeconds: 86_400,
};

/** A database that knows one user and counts the lookups (a query that settles on the next turn, as a real one does). */
function usersDb(known: boolean) {
  const lookups = { count: 0 };
  const db = {
    query: async () => {
      lookups.count += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return known ? [{ id: USER, role: 'customer', customerId: CUSTOMER }] : [];
    },
  } as unknown as Database;
  return { db, lookups };
}

describe('the bearer authenticator', () => {
  it('verifies a token once for the requests that arrive together with it, then answers them from its cache', async () => {
    const { db, lookups } = usersDb(true);
    const authenticate = createAuthenticator(jwt, { db, clock });
    const header = `Bearer ${await signAccessToken(jwt, USER)}`;
    const principals = await Promise.all(Array.from({ length: 20 }, () => authenticate(header)));
    expect(lookups.count).toBe(1);
    expect(new Set(principals).size).toBe(1);
    expect(principals[0]).toEqual({ userId: USER, role: 'customer', customerId: CUSTOMER });
    await authenticate(header);
    expect(lookups.count).toBe(1);
  });

  it('remembers no refusal: every request with a token naming no user is refused, and the next one looks again', async () => {
    const { db, lookups } = usersDb(false);
    const authenticate = createAuthenticator(jwt, { db, clock });
    const header = `Bearer ${await signAccessToken(jwt, USER)}`;
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => authenticate(header)));
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(lookups.count).toBe(1);
    await expect(authenticate(header)).rejects.toMatchObject({ status: 401, reason: 'TOKEN_INVALID' });
    expect(lookups.count).toBe(2);
  });

  it('with its cache off (TTL 0), checks every request', async () => {
    const { db, lookups } = usersDb(true);
    const authenticate = createAuthenticator(jwt, { db, clock }, 0);
    const header = `Bearer ${await signAccessToken(jwt, USER)}`;
    await Promise.all([authenticate(header), authenticate(header), authenticate(header)]);
    expect(lookups.count).toBe(3);
  });
});
