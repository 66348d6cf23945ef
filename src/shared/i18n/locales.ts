// The languages a signer can be served in (issue 31 › 1, 2): which exist, which read right to left, and
// how a BCP 47 tag someone asked for becomes one of them (exact, then its base, then nothing).

export const LOCALES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt-BR',
  'pt-PT',
  'nl',
  'pl',
  'cs',
  'uk',
  'tr',
  'sv',
  'ja',
  'ko',
  'zh-Hans',
  'ar',
  'he',
] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** An account's `locale` until someone sets it (accounts.locale's column default). */
export const ACCOUNT_DEFAULT_LOCALE = 'en-US';

const RTL: ReadonlySet<Locale> = new Set(['ar', 'he']);

/** How a tag's base maps when the base alone is not a locale of ours (`pt` → Brazilian, `zh` → Simplified). */
const BASE_DEFAULTS: Record<string, Locale> = { pt: 'pt-BR', zh: 'zh-Hans' };

/** Regional and script variants of Chinese written in Simplified characters. */
const SIMPLIFIED_CHINESE = /^zh(?:-hans|-cn|-sg|-my)(?:-|$)/i;
const TRADITIONAL_CHINESE = /^zh(?:-hant|-tw|-hk|-mo)(?:-|$)/i;

const BY_LOWER = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

/**
 * The locale of ours a BCP 47 tag asks for: the tag itself, else its base language (`de-AT` → `de`,
 * `pt` → `pt-BR`), else null. Case and `_` separators are forgiven. Traditional Chinese is not served
 * in Simplified characters: it has no locale of ours.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const clean = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/.test(clean)) return null;
  const exact = BY_LOWER.get(clean);
  if (exact) return exact;
  if (TRADITIONAL_CHINESE.test(clean)) return null;
  if (SIMPLIFIED_CHINESE.test(clean)) return 'zh-Hans';
  const base = clean.split('-')[0];
  return BY_LOWER.get(base) ?? BASE_DEFAULTS[base] ?? null;
}

/** The longest language tag accepted (BCP 47 tags in use are far shorter; RFC 5646 §4.4.1 suggests 35). */
export const MAX_LANGUAGE_TAG_LENGTH = 35;

/** A well-formed BCP 47 tag in its canonical form (`de-de` → `de-DE`), or null. */
export function canonicalLanguageTag(raw: string | null | undefined): string | null {
  if (!raw || raw.length > MAX_LANGUAGE_TAG_LENGTH) return null;
  try {
    const [tag] = Intl.getCanonicalLocales(raw);
    return tag ?? null;
  } catch {
    return null;
  }
}

/** The first of `candidates` (most preferred first) that names a locale of ours, else English. */
export function chooseLocale(candidates: readonly (string | null | undefined)[]): Locale {
  for (const candidate of candidates) {
    const locale = matchLocale(candidate);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

export function isRtl(locale: Locale): boolean {
  return RTL.has(locale);
}

export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return isRtl(locale) ? 'rtl' : 'ltr';
}

const autonyms = new Map<Locale, string>();

/** The language's own name for itself ("Deutsch", "العربية"), for the language switch. */
export function autonym(locale: Locale): string {
  let name = autonyms.get(locale);
  if (!name) {
    const own = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
    name = own.charAt(0).toLocaleUpperCase(locale) + own.slice(1);
    autonyms.set(locale, name);
  }
  return name;
}

/** The tags of an `Accept-Language` header, most preferred first (RFC 9110 §12.5.4); `*` and q=0 dropped. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The language's name in English ("Arabic"): drawn on the audit page with its Latin fonts. */
export function englishName(locale: Locale): string {
  return new Intl.DisplayNames(['en'], { type: 'language' }).of(locale) ?? locale;
}
