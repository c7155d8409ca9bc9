import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a webhook may be delivered to: public unicast only. The ranges are
 * ipaddr.js's (its IANA special-purpose registries), not a list of prefixes of ours: every
 * address whose range is not `unicast` is refused — loopback, private, link-local, carrier-grade
 * NAT, unique-local, multicast, broadcast, unspecified, documentation and other reserved,
 * benchmarking, AMT, AS112, ORCHID, Teredo — and an IPv6 address must also be global unicast
 * (2000::/3, which leaves out the deprecated IPv4-compatible ::a.b.c.d). An IPv4 address written
 * in IPv6 (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 2002:aabb:ccdd::) is named by
 * its IPv4 in the reason, since that is what it reaches.
 */

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** An IP address as text (IPv6 with or without brackets), or null when the text is not one. */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  return null;
}

export function isLoopback(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.range() === 'loopback';
}

/**
 * Why `address` may not be connected to, in words for the caller (null: a public unicast address).
 * With `allowLoopback` (development and tests), loopback itself (127.0.0.0/8, ::1) is allowed.
 */
export function addressProblem(address: ipaddr.IPv4 | ipaddr.IPv6, allowLoopback: boolean): string | null {
  if (allowLoopback && isLoopback(address)) return null;
  const range = address.range();
  if (address.kind() === 'ipv4') return range === 'unicast' ? null : `${address.toString()} is in the ${range} range`;
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return `${v6.toRFC5952String()} is in the ${range} range and reaches ${embedded.toString()} (${embedded.range()})`;
  if (range !== 'unicast') return `${v6.toRFC5952String()} is in the ${range} range`;
  if (!v6.match(GLOBAL_UNICAST_V6)) return `${v6.toRFC5952String()} is outside global unicast (2000::/3)`;
  return null;
}

/** The IPv4 address an IPv4-mapped, NAT64 (well-known prefix) or 6to4 IPv6 address stands for. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(NAT64_WELL_KNOWN) || address.range() === 'rfc6145') return new ipaddr.IPv4(bytes.slice(12, 16));
  if (address.range() === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}
