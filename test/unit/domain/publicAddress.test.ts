// Which webhook URLs may be registered and which addresses delivered to: every spelling of a
// private address that a naive check lets through, and the ranges of the IANA registries.
import { describe, expect, it } from 'vitest';
import { addressProblem, parseAddress } from '../../../src/domain/webhooks/publicAddress.js';
import { webhookUrlProblem } from '../../../src/domain/webhooks/webhooks.js';
import { REVIEWED_WEBHOOK_URLS } from '../../support/webhookUrls.js';

const problemOf = (address: string, allowLoopback = false) => addressProblem(parseAddress(address)!, allowLoopback);

describe('addresses a delivery may connect to: public unicast only', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'], // TEST-NET-1 (documentation)
    ['198.51.100.1', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['198.18.0.1', 'reserved'], // benchmarking
    ['2001:db8::1', 'reserved'], // documentation
    ['240.0.0.1', 'reserved'],
  ])('%s is refused (%s)', (address, range) => {
    expect(problemOf(address)).toContain(range);
  });

  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1 (loopback)'],
    ['::ffff:169.254.169.254', '169.254.169.254 (linkLocal)'],
    ['::ffff:10.0.0.1', '10.0.0.1 (private)'],
    ['::ffff:8.8.8.8', '8.8.8.8 (unicast)'], // a mapped form is never needed to reach a public host
    ['64:ff9b::7f00:1', '127.0.0.1 (loopback)'], // NAT64 (RFC 6052)
    ['64:ff9b::a9fe:a9fe', '169.254.169.254 (linkLocal)'],
    ['2002:7f00:1::', '127.0.0.1 (loopback)'], // 6to4
    ['::ffff:0:a00:1', '10.0.0.1 (private)'], // RFC 6145 translated
  ])('%s, an IPv4 in IPv6 clothing, is refused and named by its IPv4 %s', (address, reaches) => {
    expect(problemOf(address)).toContain(`reaches ${reaches}`);
  });

  it('refuses IPv6 outside global unicast, the IPv4-compatible ::a.b.c.d included', () => {
    expect(problemOf('::7f00:1')).toContain('outside global unicast'); // ::127.0.0.1 as the URL parser writes it
    expect(problemOf('1::1')).toContain('outside global unicast');
  });

  it('accepts public unicast addresses', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(problemOf(address), address).toBeNull();
  });

  it('accepts loopback itself only when loopback is allowed (development), never its disguises', () => {
    expect(problemOf('127.0.0.1', true)).toBeNull();
    expect(problemOf('::1', true)).toBeNull();
    expect(problemOf('::ffff:127.0.0.1', true)).not.toBeNull();
    expect(problemOf('10.0.0.1', true)).not.toBeNull();
  });

  it('reads bracketed IPv6 and refuses to read what is not an address', () => {
    expect(parseAddress('[::1]')?.toString()).toBe('::1');
    expect(parseAddress('hooks.example.com')).toBeNull();
    expect(parseAddress('0x7f.1')).toBeNull(); // only dotted quads: the URL parser writes IPv4 so
  });
});

describe('webhook URLs at registration', () => {
  it.each([
    ...REVIEWED_WEBHOOK_URLS,
    // Other spellings of the same places.
    'https://0x7f.0.0.1/hook',
    'https://0177.0.0.1/hook',
    'https://127.1/hook',
    'https://[::127.0.0.1]/hook',
    'https://[2002:7f00:1::]/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00::1]/hook',
    'https://api.localhost/hook',
    'https://printer.local/hook',
    'https://router.home.arpa/hook',
    'https://intranet/hook',
    'https://user:pw@hooks.example.com/hook',
  ])('%s is refused', (url) => {
    expect(webhookUrlProblem(url, false)).toMatch(/^body\.url must not/);
  });

  it('accepts https to a public name or address; plain http only to loopback, only when loopback is allowed', () => {
    for (const url of [
      'https://hooks.example.com/payroll',
      'https://hooks.example.com./payroll',
      'https://8.8.8.8/hook',
      'https://[2606:4700:4700::1111]/hook',
    ]) {
      expect(webhookUrlProblem(url, false), url).toBeNull();
    }
    expect(webhookUrlProblem('http://hooks.example.com/payroll', false)).toBe('body.url must use https');
    expect(webhookUrlProblem('http://hooks.example.com/payroll', true)).toBe('body.url must use https');
    expect(webhookUrlProblem('http://127.0.0.1:4450/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://localhost:4450/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:4450/hook', false)).toBe('body.url must not point at a loopback address');
    expect(webhookUrlProblem('https://[::ffff:127.0.0.1]:4450/hook', true)).toMatch(/^body\.url must not point at a private network address/);
    expect(webhookUrlProblem('ftp://hooks.example.com/x', false)).toBe('body.url must use https');
  });
});
