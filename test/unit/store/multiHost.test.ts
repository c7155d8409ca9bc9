import { describe, expect, it } from 'vitest';
import {
  ConnectionStringError,
  type HostAddress,
  type HostRole,
  NoPrimaryError,
  parseMultiHostUrl,
  PrimaryFinder,
} from '../../../src/store/database/multiHost.js';
import { isDatabaseUnavailable } from '../../../src/store/database/unavailable.js';

describe('parseMultiHostUrl', () => {
  it('leaves a plain connection string to pg (one host, no target_session_attrs)', () => {
    expect(parseMultiHostUrl('postgres://postgres@127.0.0.1:5432/postgres')).toBeUndefined();
    expect(parseMultiHostUrl('postgres://u:p@db.example/payroll?sslmode=require')).toBeUndefined();
  });

  it('reads libpq hosts, ports and target_session_attrs, and writes one URL per host without it', () => {
    const url = parseMultiHostUrl('postgres://app:s%40cret@10.0.0.1:6501,10.0.0.2,db3:6503/payroll?target_session_attrs=read-write&sslmode=disable');
    expect(url?.hosts).toEqual([
      { host: '10.0.0.1', port: 6501 },
      { host: '10.0.0.2', port: 5432 },
      { host: 'db3', port: 6503 },
    ]);
    expect(url?.targetSessionAttrs).toBe('read-write');
    expect(url?.urlFor({ host: 'db3', port: 6503 })).toBe('postgres://app:s%40cret@db3:6503/payroll?sslmode=disable');
  });

  it('takes one host with target_session_attrs, IPv6 in brackets, and no database or user', () => {
    const single = parseMultiHostUrl('postgresql://h1:7000/db?target_session_attrs=read-write');
    expect(single?.hosts).toEqual([{ host: 'h1', port: 7000 }]);
    expect(single?.urlFor({ host: 'h1', port: 7000 })).toBe('postgresql://h1:7000/db');
    const v6 = parseMultiHostUrl('postgres://[::1]:6501,[::1]:6502');
    expect(v6?.hosts).toEqual([
      { host: '::1', port: 6501 },
      { host: '::1', port: 6502 },
    ]);
    expect(v6?.targetSessionAttrs).toBe('any');
    expect(v6?.urlFor({ host: '::1', port: 6502 })).toBe('postgres://[::1]:6502');
  });

  it('refuses what libpq would refuse or what is not supported', () => {
    const reasonOf = (url: string) => {
      try {
        parseMultiHostUrl(url);
      } catch (error) {
        return error instanceof ConnectionStringError ? error.reason : error;
      }
      return 'accepted';
    };
    expect(reasonOf('postgres://h1:6501,,h3/db')).toBe('EMPTY_HOST');
    expect(reasonOf('postgres://h1:65536,h2/db')).toBe('BAD_PORT');
    expect(reasonOf('postgres://h1:x,h2/db')).toBe('BAD_PORT');
    expect(reasonOf('postgres://h1,h2/db?target_session_attrs=read-only')).toBe('TARGET_SESSION_ATTRS');
  });
});

const A = { host: 'a', port: 1 };
const B = { host: 'b', port: 2 };

/** A formation whose roles the test sets, counting the probes each host gets. */
function formation(roles: Map<string, HostRole | 'down'>) {
  const probes: string[] = [];
  const probe = async (host: HostAddress): Promise<HostRole> => {
    probes.push(host.host);
    const role = roles.get(host.host);
    if (role === undefined || role === 'down') throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    return role;
  };
  return { probes, probe };
}

describe('PrimaryFinder', () => {
  it('finds the writable host, keeps it, and finds the promoted standby once the primary is suspected', async () => {
    const roles = new Map<string, HostRole | 'down'>([
      ['a', 'primary'],
      ['b', 'standby'],
    ]);
    const { probes, probe } = formation(roles);
    const finder = new PrimaryFinder([A, B], probe, { targetSessionAttrs: 'read-write', retryMs: 500 });
    expect(await finder.primary()).toEqual(A);
    expect(await finder.primary()).toEqual(A);
    expect(probes).toEqual(['a', 'b']);

    roles.set('a', 'down');
    roles.set('b', 'primary');
    finder.suspect(A);
    expect(finder.current()).toBeUndefined();
    expect(await finder.primary()).toEqual(B);
    expect(finder.current()).toEqual(B);
  });

  it('asks once for many waiting callers', async () => {
    const { probes, probe } = formation(new Map([['b', 'primary']]));
    const finder = new PrimaryFinder([A, B], probe, { targetSessionAttrs: 'read-write', retryMs: 500 });
    const found = await Promise.all([finder.primary(), finder.primary(), finder.primary()]);
    expect(found).toEqual([B, B, B]);
    expect(probes).toEqual(['a', 'b']);
  });

  it('refuses at once (an unavailable error) while no host is writable, then looks again after retryMs', async () => {
    const roles = new Map<string, HostRole | 'down'>([
      ['a', 'standby'],
      ['b', 'down'],
    ]);
    const { probes, probe } = formation(roles);
    let now = 1_000;
    const finder = new PrimaryFinder([A, B], probe, { targetSessionAttrs: 'read-write', retryMs: 500, now: () => now });
    const error = await finder.primary().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoPrimaryError);
    expect((error as NoPrimaryError).seen).toEqual([
      { host: A, role: 'standby' },
      { host: B, role: 'unreachable' },
    ]);
    expect(isDatabaseUnavailable(error)).toBe(true);

    await expect(finder.primary()).rejects.toBeInstanceOf(NoPrimaryError);
    expect(probes).toHaveLength(2);

    roles.set('a', 'primary');
    now += 500;
    expect(await finder.primary()).toEqual(A);
    expect(probes).toHaveLength(4);
  });

  it('a suspicion of a host that is no longer the primary changes nothing; any takes a standby', async () => {
    const { probe } = formation(
      new Map<string, HostRole | 'down'>([
        ['a', 'standby'],
        ['b', 'primary'],
      ]),
    );
    const finder = new PrimaryFinder([A, B], probe, { targetSessionAttrs: 'read-write', retryMs: 500 });
    expect(await finder.primary()).toEqual(B);
    finder.suspect(A);
    expect(finder.current()).toEqual(B);

    const any = new PrimaryFinder([A, B], probe, { targetSessionAttrs: 'any', retryMs: 500 });
    expect(await any.primary()).toEqual(A);
  });
});
