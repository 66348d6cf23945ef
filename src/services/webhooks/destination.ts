// Whether a webhook may call a URL, DNS included (decisions.md › Integrity (issue 21): webhook DNS):
// the URL policy first, then every address the host name resolves to, judged by the same blocked ranges.
import ipaddr from 'ipaddr.js';
import { dnsLabels } from '../../lib/dns-message';
import type { HostResolver, ResolvedAddress } from './dns-over-https';
import { blockedAddressReason, checkWebhookUrl, WEBHOOK_WORDING, type UrlPolicy, type UrlWording } from './url-policy';

export type DestinationVerdict =
  | { ok: true; url: URL }
  /**
   * `url`: the URL itself may not be called. `dns`: its host resolves to a blocked address, or to none.
   * `unavailable`: the resolver could not answer, so nothing is known yet; worth trying again.
   */
  | { ok: false; kind: 'url' | 'dns' | 'unavailable'; reason: string };

function describe(address: ipaddr.IPv4 | ipaddr.IPv6, via: readonly string[]): string {
  return via.length ? `${address.toString()} (through CNAME ${via.join(' → ')})` : address.toString();
}

/** The first resolved address that is blocked, with why; null when every address is public. */
export function blockedResolution(
  hostname: string,
  addresses: readonly ResolvedAddress[],
  { field, caller }: UrlWording = WEBHOOK_WORDING,
): string | null {
  for (const resolved of addresses) {
    // The resolver's text is untrusted input: an address that does not parse is refused, not skipped.
    if (!ipaddr.isValid(resolved.address))
      return `${field}'s host ${hostname} resolves to an unreadable address, which ${caller} may not call.`;
    const address = ipaddr.parse(resolved.address);
    const reason = blockedAddressReason(address);
    if (reason)
      return `${field}'s host ${hostname} resolves to ${describe(address, resolved.via)}, ${reason}, which ${caller} may not call.`;
  }
  return null;
}

/**
 * checkWebhookUrl, then, for a host name, its A and AAAA answers: any blocked address refuses the URL,
 * and so does a name without an address. IP literals and WEBHOOK_ALLOW_HOSTS entries are not looked up.
 */
export async function checkWebhookDestination(
  raw: string,
  policy: UrlPolicy,
  resolve: HostResolver,
  words: UrlWording = WEBHOOK_WORDING,
): Promise<DestinationVerdict> {
  const { field, caller } = words;
  const verdict = checkWebhookUrl(raw, policy, words);
  if (!verdict.ok) return { ok: false, kind: 'url', reason: verdict.reason };
  if (!verdict.dnsName) return { ok: true, url: verdict.url };
  const host = verdict.dnsName;
  if (!dnsLabels(host))
    return {
      ok: false,
      kind: 'url',
      reason: `${field}'s host ${host} is not a valid DNS name (at most 63 characters per label, 253 in all).`,
    };
  const resolution = await resolve(host);
  if (resolution.kind === 'unavailable') {
    return {
      ok: false,
      kind: 'unavailable',
      reason: `${field}'s host ${host} could not be checked: the DNS resolver failed (${resolution.detail}). Try again later.`,
    };
  }
  if (resolution.kind === 'no_address') {
    return {
      ok: false,
      kind: 'dns',
      reason: `${field}'s host ${host} does not resolve: ${resolution.detail}. ${caller[0].toUpperCase()}${caller.slice(1)} need a host with a public A or AAAA record.`,
    };
  }
  const blocked = blockedResolution(host, resolution.addresses, words);
  if (blocked) return { ok: false, kind: 'dns', reason: blocked };
  return { ok: true, url: verdict.url };
}
