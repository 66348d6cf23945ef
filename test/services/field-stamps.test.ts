import { describe, expect, it } from 'vitest';
import type { Submitter, TemplateField } from '../../src/db/schema/index';
import { formatDateStamp } from '../../src/services/sealing/date-stamp';
import { stampsForDocument } from '../../src/services/sealing/field-stamps';

const doc = { uuid: 'doc-1', pageCount: 1 };
const area = { page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05, attachment_uuid: 'doc-1' };
const field = (uuid: string, type = 'text'): TemplateField =>
  ({ uuid, name: uuid, type, submitter_uuid: 'role', required: false, readonly: false, areas: [area], preferences: {} }) as TemplateField;
const signer = { roleUuid: 'role', values: { a: 'Shown', b: 'Hidden', c: true } } as unknown as Submitter;

describe('stampsForDocument', () => {
  it('draws every filled field at its areas', () => {
    const stamps = stampsForDocument([field('a'), field('b'), field('c', 'checkbox')], [signer], doc);
    expect(stamps.map((s) => s.value)).toEqual([
      { kind: 'text', text: 'Shown' },
      { kind: 'text', text: 'Hidden' },
      { kind: 'check', checked: true },
    ]);
  });

  it('draws nothing for fields their conditions hid', () => {
    const stamps = stampsForDocument([field('a'), field('b')], [signer], doc, new Set(['b']));
    expect(stamps.map((s) => s.value)).toEqual([{ kind: 'text', text: 'Shown' }]);
  });
});

describe('date stamps', () => {
  const dated = (type: string, preferences: Record<string, unknown> = {}) => ({ ...field('d', type), preferences }) as TemplateField;
  const withDate = (value: string) => ({ roleUuid: 'role', values: { d: value } }) as unknown as Submitter;

  it('writes a date in the account’s locale when the field sets no format', () => {
    expect(stampsForDocument([dated('date')], [withDate('2026-11-25')], doc, new Set(), 'en-US')[0].value).toEqual({
      kind: 'text',
      text: 'November 25, 2026',
    });
    expect(stampsForDocument([dated('datenow')], [withDate('2026-11-25')], doc, new Set(), 'de-DE')[0].value).toEqual({
      kind: 'text',
      text: '25. November 2026',
    });
  });

  it('writes a date in the field’s own format, month names in the account’s language', () => {
    expect(
      stampsForDocument([dated('date', { format: 'DD/MM/YYYY' })], [withDate('2026-03-07')], doc, new Set(), 'en-GB')[0].value,
    ).toEqual({ kind: 'text', text: '07/03/2026' });
    expect(formatDateStamp('2026-03-07', { format: 'D MMMM YYYY', locale: 'fr-FR' })).toBe('7 mars 2026');
    expect(formatDateStamp('03/07/2026', { format: 'MMM D, YY', locale: 'en-US' })).toBe('Mar 7, 26');
  });

  it('reads MM/DD/YYYY values and keeps text that is not a date as it is', () => {
    expect(formatDateStamp('03/07/2026', { locale: 'en-US' })).toBe('March 7, 2026');
    expect(formatDateStamp('next Tuesday', { locale: 'en-US' })).toBe('next Tuesday');
  });

  it('falls back to en-US for a locale Intl cannot read', () => {
    expect(formatDateStamp('2026-11-25', { locale: 'not a locale!' })).toBe('November 25, 2026');
  });
});
