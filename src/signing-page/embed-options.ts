// Options an embedding page passes to the signing page in its query string (`<signing-form>` builds it;
// decisions.md › Embedding (issue 15): embedded signing form): prefilled values, read-only fields, the
// language, a completed redirect and the theme's CSS variables. Each is checked here and an option that
// fails its check is dropped: the signer still gets a working form, and nothing from the query ever
// reaches the page except as validated data.
import type { TemplateField } from '../db/schema/index';
import { checkFieldValue, isBlank } from '../shared/field-values';
import { canonicalLanguageTag } from '../shared/i18n/locales';
import { brandPalette, NEUTRAL } from '../lib/design-tokens';
import { contrastRatio, MIN_TEXT_CONTRAST, readablePair } from '../shared/colors';

export type EmbedTheme = Partial<Record<'primary' | 'header' | 'background' | 'text', string>> & { radius?: string };

export type EmbedOptions = {
  /** Prefilled values by field name or uuid, as the query gave them. */
  values: Record<string, unknown>;
  /** Field names or uuids the signer sees but does not edit. */
  readonlyFields: string[];
  language: string | null;
  completedRedirectUrl: string | null;
  theme: EmbedTheme;
};

/** The query parameters, one per option; the theme's come from the element's `--signing-*` CSS variables. */
export const THEME_PARAMS = {
  primary_color: 'primary',
  header_color: 'header',
  background_color: 'background',
  text_color: 'text',
} as const;

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const RADIUS = /^(?:[0-9]|[1-3][0-9])px$/;
const MAX_VALUES_JSON = 20_000;
/** Field types a host may prefill: typed values, never pictures, files, payments or the date of signing. */
const PREFILLABLE = new Set(['text', 'number', 'date', 'phone', 'select', 'radio', 'checkbox', 'cells']);

function redirectOf(raw: string | null, allowHttp: boolean): string | null {
  if (!raw || raw.length > 2048) return null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'https:' || (allowHttp && url.protocol === 'http:')) return url.href;
  } catch {
    // not a URL: dropped
  }
  return null;
}

function valuesOf(raw: string | null): Record<string, unknown> {
  if (!raw || raw.length > MAX_VALUES_JSON) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Reads the options from a signing page URL's query; `allowHttp` (development) lets an http redirect through. */
export function embedOptionsOf(query: URLSearchParams, { allowHttp }: { allowHttp: boolean }): EmbedOptions {
  const theme: EmbedTheme = {};
  for (const [param, key] of Object.entries(THEME_PARAMS)) {
    const value = query.get(param);
    if (value && HEX_COLOR.test(value)) theme[key] = value;
  }
  const radius = query.get('border_radius');
  if (radius && RADIUS.test(radius)) theme.radius = radius;
  return {
    values: valuesOf(query.get('values')),
    readonlyFields: (query.get('readonly_fields') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .slice(0, 500),
    language: canonicalLanguageTag(query.get('language')),
    completedRedirectUrl: redirectOf(query.get('completed_redirect_url'), allowHttp),
    theme,
  };
}

const named = (field: TemplateField, keys: Iterable<string>) => {
  for (const key of keys) if (key === field.name || key === field.uuid) return true;
  return false;
};

/**
 * The signer's opening values with the host's prefill applied: only to this signer's own fields of a
 * prefillable type that hold no value yet (what the signer saved wins), and only values the field's own
 * rules accept.
 */
export function prefilledValues(fields: TemplateField[], values: Record<string, unknown>, options: EmbedOptions): Record<string, unknown> {
  const out = { ...values };
  for (const [key, value] of Object.entries(options.values)) {
    const field = fields.find((f) => named(f, [key]));
    if (!field || !PREFILLABLE.has(field.type) || field.readonly || field.formula || !isBlank(out[field.uuid])) continue;
    if (typeof value === 'string' && value.length > 10_000) continue;
    const checked = checkFieldValue({ ...field, required: false }, value);
    if (checked.ok && !isBlank(checked.value)) out[field.uuid] = checked.value;
  }
  return out;
}

/** The uuids of this signer's fields the host asked to show read-only. */
export function lockedFields(fields: TemplateField[], options: EmbedOptions): string[] {
  return fields.filter((f) => named(f, options.readonlyFields)).map((f) => f.uuid);
}

/**
 * The theme as CSS custom properties on :root, from validated values only, kept readable as the account's
 * brand colours are (WCAG 1.4.3, 4.5:1): a host's primary and header colours go through the same palette
 * (the text on them black or white, the accent darkened until it reads on the canvas), and a text colour
 * that would not read on the background becomes black or white.
 */
export function themeCss(theme: EmbedTheme): string {
  const vars: string[] = [];
  if (theme.primary) {
    const p = brandPalette(theme.primary, theme.header ?? theme.primary);
    vars.push(`--primary:${p.primary}`, `--on-primary:${p.onPrimary}`, `--primary-hover:${p.primaryHover}`, `--accent:${p.accent}`);
  }
  if (theme.header) {
    const h = brandPalette(theme.primary ?? theme.header, theme.header);
    vars.push(`--header:${h.header}`, `--on-header:${h.onHeader}`);
  }
  if (theme.background) vars.push(`--background:${theme.background}`);
  if (theme.background || theme.text) {
    const background = theme.background ?? NEUTRAL.canvas;
    const text = theme.text ?? NEUTRAL.text;
    const readable = contrastRatio(text, background) >= MIN_TEXT_CONTRAST ? text : readablePair(background).text;
    if (theme.text || readable !== text) vars.push(`--text:${readable}`);
  }
  if (theme.radius) vars.push(`--radius:${theme.radius}`);
  return vars.length > 0 ? `:root{${vars.join(';')}}` : '';
}
