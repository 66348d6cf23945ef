// The signing page's branding, resolved at render time (spec › Branding): src/services/branding/resolve-branding.ts
// decides; this names what the page's layout reads.
import { resolveBranding, type BrandingSources, type ResolvedBranding } from '../services/branding/resolve-branding';

export type PageBranding = ResolvedBranding;

/**
 * The page's branding from the template's preferences, its brand, the custom domain it is served on
 * (`domainBranding`), the account and the service, each level overriding the next.
 */
export function pageBranding(sources: BrandingSources): PageBranding {
  return resolveBranding(sources);
}

/** The service's own branding, for pages shown before any account is known (an unknown link). */
export function serviceBranding(serviceName: string, title: string): PageBranding {
  return resolveBranding({ template: {}, templateName: title, account: { name: serviceName }, serviceName });
}
