// What a brand's (or a custom domain's) branding may hold (spec › Branding): only the listed keys, each of
// its type, URLs http(s), header_color dark enough for white text. Null or "" drops a key (spec › Create brand).
import type { BrandingValues } from '../../db/schema/index';
import { BRANDING_KEYS } from '../../shared/branding-keys';

export type BrandingKey = (typeof BRANDING_KEYS)[number];

const URL_KEYS = new Set<string>(['logo_url', 'favicon_url']);
const COLOR_KEYS = new Set<string>(['primary_button_color', 'header_color']);
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
/** Text keys are shown in headers, titles and emails: long enough for any real name, short enough for a header. */
const MAX_TEXT = 255;
const MAX_URL = 2048;

/** spec › Branding › header_color: luminance 0.299R + 0.587G + 0.114B at most 50%. */
export function isDarkColor(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b <= 0.5 * 255;
}

export function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function problemOf(key: string, value: unknown, where: string): string | null {
  const name = `${where}.${key}`;
  if (!(BRANDING_KEYS as readonly string[]).includes(key)) return `${name} is not a branding key; use ${BRANDING_KEYS.join(', ')}.`;
  if (key === 'show_branding') return typeof value === 'boolean' ? null : `${name} must be true or false.`;
  if (typeof value !== 'string') return `${name} must be a string.`;
  if (URL_KEYS.has(key)) {
    if (value.length > MAX_URL) return `${name} must be at most ${MAX_URL} characters.`;
    return isHttpUrl(value) ? null : `${name} must be an http(s) URL.`;
  }
  if (COLOR_KEYS.has(key)) {
    if (!HEX_COLOR.test(value)) return `${name} must be a colour like #1a2b3c.`;
    if (key === 'header_color' && !isDarkColor(value)) {
      return `${name} ${value} is too light; choose a colour with luminance at most 50% so white header text stays readable.`;
    }
    return null;
  }
  return value.length > MAX_TEXT ? `${name} must be at most ${MAX_TEXT} characters.` : null;
}

/**
 * Checks a branding object as sent: the stored branding (null and "" dropped, text as sent), or every
 * problem as a sentence naming its key.
 */
export function checkBranding(input: Record<string, unknown>, where = 'branding'): { branding: BrandingValues; problems: string[] } {
  const branding: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const known = (BRANDING_KEYS as readonly string[]).includes(key);
    if (known && (value === null || value === '')) continue;
    const problem = problemOf(key, value, where);
    if (problem) problems.push(problem);
    else branding[key] = value;
  }
  return { branding: branding as BrandingValues, problems };
}

/** A custom domain's branding: like a brand's check, for a value that may be missing (no branding) or not an object at all. */
export function checkDomainBranding(input: unknown, field = 'branding'): { branding: BrandingValues; problems: string[] } {
  if (input === null || input === undefined) return { branding: {} as BrandingValues, problems: [] };
  if (typeof input !== 'object' || Array.isArray(input))
    return { branding: {} as BrandingValues, problems: [`${field} must be an object.`] };
  return checkBranding(input as Record<string, unknown>, field);
}
