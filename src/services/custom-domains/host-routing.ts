// Which requests a custom signing domain serves, and how a Host is resolved to its domain cheaply
// (docs/custom-domains.md › Host routing).
import type { Db } from '../../db/client';
import { customDomainByHostname } from '../../db/queries/custom-domains';
import type { CustomDomain } from '../../db/schema/index';
import { lapsedBefore } from './claims';
import { cachedHost, rememberHost } from './host-cache';
import { checkHostname, hostOf } from './hostnames';

/**
 * Signing pages and their JSON routes, their assets, and public document links (decisions.md › Public
 * links, `/l/<token>`), and the signing form's embed script. Everything else — the API, its docs, the console — belongs to the service's host.
 */
const CUSTOM_DOMAIN_PATHS = ['/s/', '/vendor/', '/l/', '/embed/v1/form.js', '/js/form.js'];

export function servedOnCustomDomain(path: string): boolean {
  return CUSTOM_DOMAIN_PATHS.some((prefix) => path.startsWith(prefix));
}

/** The service's own host names: APP_URL's, and the host an API request came to. */
export function serviceHostsOf(request: Request, env: { APP_URL?: string }): string[] {
  return [hostOf(env.APP_URL), hostOf(request.url)].filter((host): host is string => Boolean(host));
}

/**
 * The custom domain `hostname` names, or null: the proven one, else a claim that has not lapsed. No query
 * for the service's own host (APP_URL) or for a name that could never be a custom domain (an IP address,
 * localhost); otherwise one indexed lookup, remembered for a few seconds by the isolate.
 */
export async function customDomainForHost(
  db: Db,
  hostname: string,
  appUrl: string | undefined,
  now = Date.now(),
): Promise<CustomDomain | null> {
  if (hostname === hostOf(appUrl) || 'problem' in checkHostname(hostname, [])) return null;
  const cached = cachedHost(hostname, now);
  if (cached !== undefined) return cached;
  const domain = (await customDomainByHostname(db, hostname, lapsedBefore(now))) ?? null;
  rememberHost(hostname, domain, now);
  return domain;
}
