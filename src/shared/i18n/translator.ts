// Formats a catalog's ICU MessageFormat messages (plurals, select, numbers and dates through Intl) for one
// locale. Shared by the server (pages, emails, the audit page) and the signing page's script, which gets
// only the messages it needs, inlined in the page (src/lib/i18n/catalogs.ts › clientMessages).
import { IntlMessageFormat } from 'intl-messageformat';
import type english from './catalogs/en.json';

/** A key of the English catalog, the one every other catalog follows. */
export type MessageKey = keyof typeof english;

export type Catalog = Readonly<Record<string, string>>;

export type MessageValues = Record<string, string | number | Date | null | undefined>;

export type Translate = {
  (key: MessageKey, values?: MessageValues): string;
  /** The message with its tags (`<strong>…</strong>`) given to `tags`, as parts to place in markup. */
  rich<T>(key: MessageKey, values: MessageValues, tags: Record<string, (chunks: (string | T)[]) => T>): (string | T)[];
  readonly locale: string;
};

/** Dates in messages are days in UTC, as the service stores them (`expire_at`). */
const FORMATS = { date: { long: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' } } } as const;

/**
 * A translator for `locale` over `catalog`; a key the catalog lacks is looked up in `fallback` (English),
 * and a key neither has is returned as itself, so a gap is visible rather than blank.
 */
export function translator(locale: string, catalog: Catalog, fallback: Catalog = {}): Translate {
  const compiled = new Map<string, IntlMessageFormat>();
  const formatOf = (key: string): IntlMessageFormat | null => {
    const hit = compiled.get(key);
    if (hit) return hit;
    const ownMessage = catalog[key];
    const message = ownMessage ?? fallback[key];
    if (message === undefined) return null;
    const format = new IntlMessageFormat(message, ownMessage === undefined ? 'en' : locale, FORMATS);
    compiled.set(key, format);
    return format;
  };
  const t = ((key: MessageKey, values?: MessageValues) => {
    const format = formatOf(key);
    return format ? String(format.format(values as Record<string, string>)) : key;
  }) as Translate;
  t.rich = <T>(key: MessageKey, values: MessageValues, tags: Record<string, (chunks: (string | T)[]) => T>) => {
    const format = formatOf(key);
    if (!format) return [key];
    const out = format.format<T>({ ...values, ...tags } as Record<string, T>);
    return Array.isArray(out) ? out : [out];
  };
  Object.defineProperty(t, 'locale', { value: locale });
  return t;
}
