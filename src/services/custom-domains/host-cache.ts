// A short per-isolate memory of Host → custom domain, so a signing page's assets and JSON calls do not
// each read the control database. Writes in this isolate forget their host at once; other isolates see
// a change within HOST_CACHE_TTL_MS (docs/custom-domains.md › Host routing).
import type { CustomDomain } from '../../db/schema/index';

export const HOST_CACHE_TTL_MS = 15_000;
const MAX_ENTRIES = 1_000;

const entries = new Map<string, { domain: CustomDomain | null; until: number }>();

export function cachedHost(hostname: string, now: number): CustomDomain | null | undefined {
  const entry = entries.get(hostname);
  if (!entry) return undefined;
  if (entry.until <= now) {
    entries.delete(hostname);
    return undefined;
  }
  return entry.domain;
}

export function rememberHost(hostname: string, domain: CustomDomain | null, now: number) {
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  entries.set(hostname, { domain, until: now + HOST_CACHE_TTL_MS });
}

export function forgetHost(hostname: string) {
  entries.delete(hostname);
}
