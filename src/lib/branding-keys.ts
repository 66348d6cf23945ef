// The branding keys a brand or a custom domain may store (spec › Branding), checked in one place.
import { isDarkColor } from '../services/templates/template-preferences';

export const BRANDING_KEYS = ['display_title', 'logo_url', 'favicon_url', 'company_name', 'primary_button_color', 'header_color', 'show_branding'] as const;
export type BrandingKey = (typeof BRANDING_KEYS)[number];
export type Branding = Partial<Record<BrandingKey, string | boolean>>;

const URL_KEYS = new Set<string>(['logo_url', 'favicon_url']);
const HEX = /^#[0-9a-fA-F]{6}$/;
const MAX_TEXT = 2048;

/**
 * Checks a branding object: only the spec's keys, each of its type; keys sent as null or "" are dropped
 * (spec › Create brand). Returns the cleaned object and one sentence per problem, each naming its key.
 */
export function checkBranding(input: unknown, field = 'branding'): { branding: Branding; problems: string[] } {
  if (input === null || input === undefined) return { branding: {}, problems: [] };
  if (typeof input !== 'object' || Array.isArray(input)) return { branding: {}, problems: [`${field} must be an object.`] };
  const branding: Branding = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const name = `${field}.${key}`;
    if (!(BRANDING_KEYS as readonly string[]).includes(key)) {
      problems.push(`${name} is not a branding key; use one of: ${BRANDING_KEYS.join(', ')}.`);
      continue;
    }
    if (value === null || value === '') continue;
    if (key === 'show_branding') {
      if (typeof value !== 'boolean') problems.push(`${name} must be true or false.`);
      else branding.show_branding = value;
      continue;
    }
    if (typeof value !== 'string') {
      problems.push(`${name} must be a string.`);
      continue;
    }
    if (value.length > MAX_TEXT) problems.push(`${name} must be at most ${MAX_TEXT} characters.`);
    else if (URL_KEYS.has(key) && !isHttpUrl(value)) problems.push(`${name} must be an http or https URL.`);
    else if (key === 'header_color' && !HEX.test(value)) problems.push(`${name} must be a colour like #1a2b3c.`);
    else if (key === 'header_color' && !isDarkColor(value)) {
      problems.push(`${name} ${value} is too light; choose a colour with luminance at most 50% so white header text stays readable.`);
    } else if (key === 'primary_button_color' && !HEX.test(value)) problems.push(`${name} must be a colour like #1a2b3c.`);
    else branding[key as BrandingKey] = value;
  }
  return { branding, problems };
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
