// Every catalog follows the English one (issue 31 › 1): the same keys, none unused in src, and every
// message parses as ICU MessageFormat and formats with the variables its English message uses.
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../../src/lib/i18n/catalogs';
import { LOCALES } from '../../src/shared/i18n/locales';
import { translator } from '../../src/shared/i18n/translator';

const sources = import.meta.glob<string>(['../../src/**/*.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });
const english = CATALOGS.en;
const englishKeys = Object.keys(english);

type MessageFormatElement = ReturnType<IntlMessageFormat['getAst']>[number];

/** The element types of the ICU parser's AST (@formatjs/icu-messageformat-parser › TYPE). */
const TYPE = { argument: 1, number: 2, date: 3, time: 4, select: 5, plural: 6, tag: 8 } as const;

/** The parsed message (throws on a syntax error). */
const parse = (message: string) => new IntlMessageFormat(message, 'en').getAst();

/** The variables a message uses, with the kind of value each takes. */
function variablesOf(elements: MessageFormatElement[], out = new Map<string, 'number' | 'date' | 'text' | 'tag'>()) {
  for (const e of elements) {
    if (e.type === TYPE.argument) out.set(e.value, out.get(e.value) ?? 'text');
    else if (e.type === TYPE.number || e.type === TYPE.plural) out.set(e.value, 'number');
    else if (e.type === TYPE.date || e.type === TYPE.time) out.set(e.value, 'date');
    if (e.type === TYPE.plural || e.type === TYPE.select) {
      if (e.type === TYPE.select) out.set(e.value, 'text');
      for (const option of Object.values(e.options)) variablesOf(option.value, out);
    }
    if (e.type === TYPE.tag) {
      out.set(e.value, 'tag');
      variablesOf(e.children, out);
    }
  }
  return out;
}

function sampleValues(variables: Map<string, string>): Record<string, unknown> {
  const sample: Record<string, unknown> = {};
  for (const [name, kind] of variables) {
    sample[name] =
      kind === 'number'
        ? 3
        : kind === 'date'
          ? new Date('2026-05-31T00:00:00Z')
          : kind === 'tag'
            ? (c: unknown[]) => c.join('')
            : `‹${name}›`;
  }
  return sample;
}

describe('message catalogs', () => {
  it('has one catalog per locale', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s has exactly the keys English has', (locale) => {
    const keys = new Set(Object.keys(CATALOGS[locale]));
    expect(
      englishKeys.filter((k) => !keys.has(k)),
      'missing',
    ).toEqual([]);
    expect(
      [...keys].filter((k) => !(k in english)),
      'not in English',
    ).toEqual([]);
  });

  it('uses every English key somewhere in src, written out whole', () => {
    const text = Object.entries(sources)
      .filter(([path]) => !path.includes('/i18n/catalogs/'))
      .map(([, source]) => source)
      .join('\n');
    const unused = englishKeys.filter((key) => !text.includes(`'${key}'`) && !text.includes(`"${key}"`));
    expect(unused).toEqual([]);
  });

  it.each([...LOCALES])('%s: every message parses and formats with the variables English uses', (locale) => {
    const problems: string[] = [];
    const t = translator(locale, CATALOGS[locale]);
    for (const key of englishKeys) {
      const message = CATALOGS[locale][key];
      if (typeof message !== 'string' || message.trim() === '') {
        problems.push(`${key}: empty`);
        continue;
      }
      let own: Map<string, string>;
      try {
        own = variablesOf(parse(message));
      } catch (error) {
        problems.push(`${key}: does not parse (${(error as Error).message})`);
        continue;
      }
      const expected = variablesOf(parse(english[key]));
      const strangers = [...own.keys()].filter((v) => !expected.has(v));
      if (strangers.length) problems.push(`${key}: uses ${strangers.join(', ')}, which English does not`);
      try {
        const values = sampleValues(expected) as never;
        const out = own.has('strong') ? t.rich(key as never, values, {}) : t(key as never, values);
        if (String(out).includes('{')) problems.push(`${key}: left a placeholder unformatted`);
      } catch (error) {
        problems.push(`${key}: does not format (${(error as Error).message})`);
      }
    }
    expect(problems).toEqual([]);
  });
});
