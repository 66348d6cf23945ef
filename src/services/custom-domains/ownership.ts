// Ownership of a custom domain: a DNS TXT record holding the domain's token, looked up over
// DNS-over-HTTPS (RFC 8484) like webhook hosts (src/services/webhooks/dns-over-https.ts). The current
// record name and the legacy one are both accepted (decisions.md › Brands and domains; spec ›
// Versioning rule 6).
import { base64UrlEncode, decodeResponse, DNS_TYPE, DnsFormatError, encodeQuery, RCODE } from '../../lib/dns-message';
import { DEFAULT_DOH_RESOLVER_URL, DOH_TIMEOUT_MS } from '../webhooks/dns-over-https';

export const VERIFY_RECORD_PREFIX = '_signing-service-verify';
export const LEGACY_VERIFY_RECORD_PREFIX = '_sign-verify';

export type TxtLookup = { kind: 'texts'; texts: string[] } | { kind: 'unavailable'; detail: string };

/** The TXT values at `name` (none when the name does not exist), or why the resolver could not say. */
export async function lookupTxt(resolverUrl: string, name: string, timeoutMs = DOH_TIMEOUT_MS): Promise<TxtLookup> {
  const url = new URL(resolverUrl);
  url.searchParams.set('dns', base64UrlEncode(encodeQuery(name, DNS_TYPE.TXT)));
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/dns-message' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return { kind: 'unavailable', detail: 'the DNS resolver did not answer' };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { kind: 'unavailable', detail: `the DNS resolver answered HTTP ${response.status}` };
  }
  try {
    const message = decodeResponse(new Uint8Array(await response.arrayBuffer()));
    if (message.rcode !== RCODE.NOERROR && message.rcode !== RCODE.NXDOMAIN) {
      return { kind: 'unavailable', detail: `the DNS resolver answered RCODE ${message.rcode}` };
    }
    return { kind: 'texts', texts: message.answers.flatMap((r) => (r.type === 'TXT' ? [r.text.trim()] : [])) };
  } catch (err) {
    return {
      kind: 'unavailable',
      detail: err instanceof DnsFormatError ? `the DNS answer was unreadable (${err.message})` : 'the DNS answer could not be read',
    };
  }
}

export type OwnershipResult =
  | { kind: 'proven'; record: string }
  | { kind: 'not_found'; records: string[] }
  | { kind: 'unavailable'; detail: string };

/** Whether either record name holds `token`. The current name is asked first; both are asked at once. */
export async function checkOwnership(env: { DOH_RESOLVER_URL?: string }, hostname: string, token: string): Promise<OwnershipResult> {
  const resolver = env.DOH_RESOLVER_URL?.trim() || DEFAULT_DOH_RESOLVER_URL;
  const records = [`${VERIFY_RECORD_PREFIX}.${hostname}`, `${LEGACY_VERIFY_RECORD_PREFIX}.${hostname}`];
  const lookups = await Promise.all(records.map((record) => lookupTxt(resolver, record)));
  const found = records.find((_, i) => {
    const lookup = lookups[i];
    return lookup.kind === 'texts' && lookup.texts.includes(token);
  });
  if (found) return { kind: 'proven', record: found };
  const failed = lookups.find((lookup): lookup is Extract<TxtLookup, { kind: 'unavailable' }> => lookup.kind === 'unavailable');
  if (failed) return { kind: 'unavailable', detail: failed.detail };
  return { kind: 'not_found', records };
}
