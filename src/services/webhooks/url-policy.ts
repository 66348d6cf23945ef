// Which URLs a webhook may call (decisions.md › Webhooks, blocked destinations): checked when an endpoint
// is created or updated and again before every attempt, so a later policy change also stops deliveries.
import ipaddr from 'ipaddr.js';
import { isProduction } from '../../lib/environment';

export type UrlPolicy = {
  /** Production refuses http:// and ignores allowHosts. */
  production: boolean;
  /** `host:port` or `host` entries exempt from the address checks (development and test only). */
  allowHosts: readonly string[];
};

export type UrlVerdict =
  | { ok: true; url: URL /** A host name (not an IP literal, not exempt) whose DNS answers must be judged too. */; dnsName: string | null }
  | { ok: false; reason: string };

export const MAX_URL_LENGTH = 2048;

/**
 * How a refusal names the URL and who would call it. Webhooks by default; the QES provider URL
 * (src/services/qes/provider-url.ts) is judged by the same rules with its own words.
 */
export type UrlWording = { field: string; caller: string };
export const WEBHOOK_WORDING: UrlWording = { field: 'url', caller: 'webhooks' };

/** `allowList`: the development/test exemption list (WEBHOOK_ALLOW_HOSTS unless a caller has its own). */
export function urlPolicyFromEnv(
  env: { ENVIRONMENT: string; WEBHOOK_ALLOW_HOSTS?: string },
  allowList = env.WEBHOOK_ALLOW_HOSTS,
): UrlPolicy {
  const production = isProduction(env);
  const allowHosts = production
    ? []
    : (allowList ?? '')
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean);
  return { production, allowHosts };
}

type Range = { cidr: string; label: string };

// Every range decisions.md lists, with the words the 422 uses to say why.
const BLOCKED_IPV4: readonly Range[] = [
  { cidr: '0.0.0.0/8', label: '"this network" (0.0.0.0/8)' },
  { cidr: '10.0.0.0/8', label: 'a private network (10.0.0.0/8)' },
  { cidr: '100.64.0.0/10', label: 'carrier-grade NAT space (100.64.0.0/10)' },
  { cidr: '127.0.0.0/8', label: 'loopback (127.0.0.0/8)' },
  { cidr: '169.254.0.0/16', label: 'link-local, where cloud metadata services live (169.254.0.0/16)' },
  { cidr: '172.16.0.0/12', label: 'a private network (172.16.0.0/12)' },
  { cidr: '192.0.0.0/24', label: 'IETF protocol assignments (192.0.0.0/24)' },
  { cidr: '192.0.2.0/24', label: 'documentation space (192.0.2.0/24)' },
  { cidr: '192.168.0.0/16', label: 'a private network (192.168.0.0/16)' },
  { cidr: '198.18.0.0/15', label: 'benchmarking space (198.18.0.0/15)' },
  { cidr: '198.51.100.0/24', label: 'documentation space (198.51.100.0/24)' },
  { cidr: '203.0.113.0/24', label: 'documentation space (203.0.113.0/24)' },
  { cidr: '224.0.0.0/4', label: 'multicast (224.0.0.0/4)' },
  { cidr: '240.0.0.0/4', label: 'reserved space, including broadcast (240.0.0.0/4)' },
];

const BLOCKED_IPV6: readonly Range[] = [
  { cidr: '::/128', label: 'the unspecified address (::)' },
  { cidr: '::1/128', label: 'loopback (::1)' },
  // Beyond the list: the deprecated IPv4-compatible form (::a.b.c.d) has no public use.
  { cidr: '::/96', label: 'IPv4-compatible space (::/96)' },
  { cidr: '64:ff9b::/96', label: 'NAT64 (64:ff9b::/96)' },
  { cidr: 'fc00::/7', label: 'a unique local network (fc00::/7)' },
  { cidr: 'fe80::/10', label: 'link-local (fe80::/10)' },
  { cidr: 'ff00::/8', label: 'multicast (ff00::/8)' },
  { cidr: '2001:db8::/32', label: 'documentation space (2001:db8::/32)' },
  // Beyond the list: Teredo tunnels to an address we cannot see.
  { cidr: '2001::/32', label: 'Teredo (2001::/32)' },
];

const parsedV4 = BLOCKED_IPV4.map((r) => ({ range: ipaddr.IPv4.parseCIDR(r.cidr), label: r.label }));
const parsedV6 = BLOCKED_IPV6.map((r) => ({ range: ipaddr.IPv6.parseCIDR(r.cidr), label: r.label }));
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

/** Why `address` may not be called, or null when it is a public unicast address. */
export function blockedAddressReason(address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (address.kind() === 'ipv4') {
    const v4 = address as ipaddr.IPv4;
    return parsedV4.find(({ range }) => v4.match(range))?.label ?? null;
  }
  const v6 = address as ipaddr.IPv6;
  // ::ffff:a.b.c.d reaches a.b.c.d: judge the IPv4 address it carries.
  if (v6.isIPv4MappedAddress()) {
    const inner = blockedAddressReason(v6.toIPv4Address());
    return inner ? `an IPv4-mapped address in ${inner}` : null;
  }
  // 6to4 (2002:AABB:CCDD::/48) embeds the IPv4 address AA.BB.CC.DD.
  if (v6.match(SIX_TO_FOUR)) {
    const [, hi, lo] = v6.parts;
    const inner = blockedAddressReason(new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]));
    return inner ? `a 6to4 address in ${inner}` : null;
  }
  return parsedV6.find(({ range }) => v6.match(range))?.label ?? null;
}

const NUMERIC_HOST = /^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+)){0,3}\.?$/i;

/**
 * The IP address a hostname denotes, if it is an IP literal in any spelling: `[v6]`, dotted quad, or the
 * legacy numeric forms (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) that resolvers accept. The WHATWG
 * URL parser already rewrites those for http(s); parsing again here keeps the check independent of it.
 */
export function hostAddress(hostname: string): ipaddr.IPv4 | ipaddr.IPv6 | 'invalid' | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) {
    const inner = hostname.slice(1, -1);
    return ipaddr.IPv6.isValid(inner) ? ipaddr.IPv6.parse(inner) : 'invalid';
  }
  if (!NUMERIC_HOST.test(hostname)) return null;
  const bare = hostname.replace(/\.$/, '');
  return ipaddr.IPv4.isValid(bare) ? ipaddr.IPv4.parse(bare) : 'invalid';
}

// Wildcard DNS services answer any name that embeds an address with that address (127.0.0.1.nip.io).
const EMBEDDING_SUFFIXES = ['.nip.io', '.sslip.io', '.xip.io'];
const EMBEDDED_V4 = /(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})$/;
// Public names that resolve to loopback by design.
const LOOPBACK_NAMES = ['localtest.me', 'lvh.me', 'localhost.localdomain'];

function hostnameReason(host: string): string | null {
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  if (host === 'metadata.google.internal') return 'a cloud metadata service';
  if (host === 'internal' || host.endsWith('.internal')) return 'an internal hostname (*.internal)';
  if (LOOPBACK_NAMES.some((name) => host === name || host.endsWith(`.${name}`))) return 'a hostname that resolves to loopback';
  if (!host.includes('.')) return 'a single-label hostname, which only a private resolver can answer';
  const suffix = EMBEDDING_SUFFIXES.find((s) => host.endsWith(s));
  if (suffix) {
    const match = host.slice(0, -suffix.length).match(EMBEDDED_V4);
    if (match) {
      const octets = match.slice(1, 5).map(Number);
      if (octets.every((o) => o <= 255)) {
        const inner = blockedAddressReason(new ipaddr.IPv4(octets));
        if (inner) return `a wildcard-DNS name for ${inner}`;
      }
    }
  }
  return null;
}

function allowed(url: URL, host: string, policy: UrlPolicy): boolean {
  if (policy.production || policy.allowHosts.length === 0) return false;
  const withPort = url.port ? `${host}:${url.port}` : host;
  return policy.allowHosts.includes(withPort) || policy.allowHosts.includes(host);
}

/** Ports a production webhook may use: those of http and https (the URL leaves them out when default). */
const PRODUCTION_PORTS = ['', '80', '443'];

/**
 * Decides, from the URL alone, whether a webhook may call `raw`. A host name that is not an IP literal is
 * returned as `dnsName`: its DNS answers are judged by checkWebhookDestination (destination.ts).
 */
export function checkWebhookUrl(raw: string, policy: UrlPolicy, words: UrlWording = WEBHOOK_WORDING): UrlVerdict {
  const { field, caller } = words;
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `${field} must be at most ${MAX_URL_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `${field} must be an absolute URL such as https://example.com/webhooks.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `${field} must use https, not ${url.protocol.replace(/:$/, '')}.` };
  }
  if (url.protocol === 'http:' && policy.production) {
    return { ok: false, reason: `${field} must use https; plain http is accepted only in development and test.` };
  }
  if (url.username || url.password) {
    return { ok: false, reason: `${field} must not contain a user name or password; deliveries are authenticated by their signature.` };
  }
  if (policy.production && !PRODUCTION_PORTS.includes(url.port)) {
    return { ok: false, reason: `${field} must use port 443 (or 80); port ${url.port} is accepted only in development and test.` };
  }
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (!host) return { ok: false, reason: `${field} must name a host.` };
  if (allowed(url, host, policy)) return { ok: true, url, dnsName: null };

  const address = hostAddress(host);
  if (address === 'invalid') return { ok: false, reason: `${field} has a numeric host (${url.hostname}) that is not a valid IP address.` };
  if (address) {
    const reason = blockedAddressReason(address);
    if (reason) return { ok: false, reason: `${field} points to ${address.toString()}, ${reason}, which ${caller} may not call.` };
    return { ok: true, url, dnsName: null };
  }
  const reason = hostnameReason(host);
  if (reason) return { ok: false, reason: `${field} points to ${reason} (${url.hostname}), which ${caller} may not call.` };
  return { ok: true, url, dnsName: host };
}
