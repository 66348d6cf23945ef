// IP and CIDR parsing for access tokens' `allowed_ips`, through ipaddr.js.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is compared as the IPv4 address it carries. */
function normalise(address: Address): Address {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

/** Returns a sentence describing why `entry` is not an IP or CIDR range, or null when it is one. */
export function describeInvalidIpEntry(entry: string): string | null {
  const value = entry.trim();
  if (value.includes('/')) {
    try {
      ipaddr.parseCIDR(value);
      return null;
    } catch {
      return `"${entry}" is not a valid CIDR range (expected e.g. 203.0.113.0/24 or 2001:db8::/32).`;
    }
  }
  // ipaddr.isValid accepts legacy forms like "10.1"; only the four-part and IPv6 forms are allowed here.
  if (ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value)) return null;
  return `"${entry}" is not a valid IPv4 or IPv6 address.`;
}

/** Canonical text of an entry, e.g. `2001:DB8::1` → `2001:db8::1`, `10.0.0.0/8` unchanged. */
export function canonicalIpEntry(entry: string): string {
  const value = entry.trim();
  if (value.includes('/')) {
    const [address, bits] = ipaddr.parseCIDR(value);
    return `${address.toString()}/${bits}`;
  }
  return ipaddr.parse(value).toString();
}

export function ipAllowed(clientIp: string | null, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  if (!clientIp || !ipaddr.isValid(clientIp)) return false;
  const client = normalise(ipaddr.parse(clientIp));
  return allowed.some((entry) => {
    if (entry.includes('/')) {
      const [range, bits] = ipaddr.parseCIDR(entry);
      const base = normalise(range);
      // A mapped-IPv6 range (::ffff:10.0.0.0/104) is an IPv4 range 96 bits shorter.
      const prefix = base.kind() !== range.kind() ? bits - 96 : bits;
      return client.kind() === base.kind() && client.match(base, prefix);
    }
    const address = normalise(ipaddr.parse(entry));
    return client.kind() === address.kind() && client.toString() === address.toString();
  });
}

type Range = { base: Address; bits: number };

/** An entry as the range it covers; a mapped-IPv6 range or address is the IPv4 one it carries. */
function rangeOf(entry: string): Range {
  const value = entry.trim();
  const [address, bits] = value.includes('/') ? ipaddr.parseCIDR(value) : [ipaddr.parse(value), value.includes(':') ? 128 : 32];
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return { base: (address as ipaddr.IPv6).toIPv4Address(), bits: bits - 96 };
  }
  return { base: address, bits };
}

/**
 * True when every address `entry` covers is also covered by `allowed` (an empty list allows all).
 * A range counts as within when one entry of the list contains it whole: a range split across two
 * entries is refused, which only ever errs on the side of refusing.
 */
export function ipEntryWithin(entry: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const inner = rangeOf(entry);
  return allowed.some((outerEntry) => {
    const outer = rangeOf(outerEntry);
    return inner.base.kind() === outer.base.kind() && inner.bits >= outer.bits && inner.base.match(outer.base, outer.bits);
  });
}

/**
 * The block of addresses one client is counted as: an IPv4 address itself (mapped ones included), an
 * IPv6 address's /64, since one subscriber commonly holds a whole /64 and could rotate through it.
 */
export function clientAddressBlock(clientIp: string | null): string {
  if (!clientIp || !ipaddr.isValid(clientIp)) return 'unknown';
  const address = normalise(ipaddr.parse(clientIp));
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
