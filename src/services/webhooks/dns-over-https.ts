// Resolves webhook host names over DNS-over-HTTPS (RFC 8484), since a Worker has no resolver of its own:
// GET `<resolver>?dns=<base64url query>` with `Accept: application/dns-message`, for A and AAAA at once.
// The wire format rather than the JSON API (`application/dns-json`): every RFC 8484 server speaks it
// (Cloudflare, Google, Quad9, a self-hosted one), while the JSON form is a vendor extension.
import { base64UrlEncode, decodeResponse, DNS_TYPE, DnsFormatError, encodeQuery, RCODE, type QueryType } from '../../lib/dns-message';

export const DEFAULT_DOH_RESOLVER_URL = 'https://cloudflare-dns.com/dns-query';
/** A resolver that does not answer within this is treated as unavailable. */
export const DOH_TIMEOUT_MS = 5_000;

export type ResolvedAddress = { address: string /** CNAMEs the resolver followed to reach it, in order. */; via: string[] };

export type Resolution =
  | { kind: 'addresses'; addresses: ResolvedAddress[] }
  /** NXDOMAIN, or NOERROR without an A or AAAA record. */
  | { kind: 'no_address'; detail: string }
  /** The resolver failed, timed out or answered something unreadable: nothing is known about the name. */
  | { kind: 'unavailable'; detail: string };

export type HostResolver = (hostname: string) => Promise<Resolution>;

type TypeAnswer = { rcode: number; addresses: ResolvedAddress[] } | { unavailable: string };

/** The CNAME chain from `hostname` to `owner`, as the answer section lists it. */
function chainTo(owner: string, hostname: string, cnames: Map<string, string>): string[] {
  const via: string[] = [];
  let name = hostname;
  while (name !== owner && cnames.has(name) && via.length < 16) {
    name = cnames.get(name)!;
    via.push(name);
  }
  return name === owner ? via : [owner];
}

async function query(resolverUrl: string, hostname: string, type: QueryType, timeoutMs: number): Promise<TypeAnswer> {
  const url = new URL(resolverUrl);
  url.searchParams.set('dns', base64UrlEncode(encodeQuery(hostname, type)));
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/dns-message' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    return {
      unavailable: name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs / 1000} seconds` : 'the request failed',
    };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { unavailable: `it answered HTTP ${response.status}` };
  }
  try {
    const message = decodeResponse(new Uint8Array(await response.arrayBuffer()));
    if (message.rcode !== RCODE.NOERROR && message.rcode !== RCODE.NXDOMAIN) {
      return { unavailable: message.rcode === RCODE.SERVFAIL ? 'it answered SERVFAIL' : `it answered RCODE ${message.rcode}` };
    }
    // Every A/AAAA record of the answer counts, whatever its owner: a recursive resolver returns the CNAME
    // chain and the records at its end, and any address it hands back is one fetch() may reach.
    const cnames = new Map(message.answers.flatMap((r) => (r.type === 'CNAME' ? [[r.name, r.target] as const] : [])));
    const addresses = message.answers.flatMap((r) =>
      r.type === 'A' || r.type === 'AAAA' ? [{ address: r.address, via: chainTo(r.name, hostname, cnames) }] : [],
    );
    return { rcode: message.rcode, addresses };
  } catch (err) {
    if (err instanceof DnsFormatError) return { unavailable: `its answer was unreadable (${err.message})` };
    return { unavailable: 'its answer could not be read' };
  }
}

/**
 * A resolver for one unit of work (a request, a queue batch): each name is looked up once, so a batch of
 * deliveries to one endpoint asks once, and the next batch asks again (DNS may have changed since).
 */
export function dohResolver(resolverUrl: string, options: { timeoutMs?: number } = {}): HostResolver {
  const timeoutMs = options.timeoutMs ?? DOH_TIMEOUT_MS;
  const seen = new Map<string, Promise<Resolution>>();
  return (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    let pending = seen.get(name);
    if (!pending) {
      pending = resolveBoth(resolverUrl, name, timeoutMs);
      seen.set(name, pending);
    }
    return pending;
  };
}

async function resolveBoth(resolverUrl: string, hostname: string, timeoutMs: number): Promise<Resolution> {
  let answers: TypeAnswer[];
  try {
    answers = await Promise.all([DNS_TYPE.A, DNS_TYPE.AAAA].map((type) => query(resolverUrl, hostname, type, timeoutMs)));
  } catch (err) {
    // Only a malformed resolver URL or name gets here; the caller checked the name.
    return { kind: 'unavailable', detail: err instanceof Error ? err.message : 'the lookup failed' };
  }
  const failed = answers.find((a): a is { unavailable: string } => 'unavailable' in a);
  if (failed) return { kind: 'unavailable', detail: failed.unavailable };
  const found = answers as { rcode: number; addresses: ResolvedAddress[] }[];
  const addresses = found.flatMap((a) => a.addresses);
  if (addresses.length) return { kind: 'addresses', addresses };
  return {
    kind: 'no_address',
    detail: found.some((a) => a.rcode === RCODE.NXDOMAIN) ? 'the name does not exist (NXDOMAIN)' : 'it has no A or AAAA record',
  };
}

/** The resolver `DOH_RESOLVER_URL` names (default Cloudflare's), fresh for one request or batch. */
export function hostResolverFromEnv(env: { DOH_RESOLVER_URL?: string }): HostResolver {
  return dohResolver(env.DOH_RESOLVER_URL?.trim() || DEFAULT_DOH_RESOLVER_URL);
}
