// The branding object a custom domain stores, checked by the same rules as a brand's
// (src/services/branding/branding-rules.ts): only the spec's keys, each of its type, null and "" dropped.
import type { BrandingValues } from '../db/schema/index';
import { BRANDING_KEYS, checkBranding as checkBrandingObject, isHttpUrl } from '../services/branding/branding-rules';

export { BRANDING_KEYS, isHttpUrl };
export type Branding = BrandingValues;

/** Like a brand's check, for a value that may be missing (no branding) or not an object at all. */
export function checkBranding(input: unknown, field = 'branding'): { branding: Branding; problems: string[] } {
  if (input === null || input === undefined) return { branding: {} as Branding, problems: [] };
  if (typeof input !== 'object' || Array.isArray(input)) return { branding: {} as Branding, problems: [`${field} must be an object.`] };
  return checkBrandingObject(input as Record<string, unknown>, field);
}
