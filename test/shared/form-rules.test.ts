// The signing form's rules shared by the page and the server: conditions, formulas, the carousel.
import { describe, expect, it } from 'vitest';
import { hiddenFields, reviewedFields, ruleShows, withFormulas, type RuleField } from '../../src/shared/form-rules';

function field(uuid: string, extra: Partial<RuleField> = {}): RuleField {
  return { uuid, name: uuid, type: 'text', areas: [{ attachment_uuid: 'doc-a' }], preferences: {}, ...extra };
}

describe('conditions', () => {
  it('shows a field whose show rule holds and hides it otherwise', () => {
    const rule = { action: 'show' as const, conditions: [{ field_uuid: 'agree', operator: 'checked' }] };
    expect(ruleShows(rule, { agree: true })).toBe(true);
    expect(ruleShows(rule, { agree: false })).toBe(false);
  });

  it('matches any or all conditions as the rule says', () => {
    const conditions = [
      { field_uuid: 'a', operator: 'equals', value: 'x' },
      { field_uuid: 'b', operator: 'not_empty' },
    ];
    expect(ruleShows({ action: 'show', match: 'any', conditions }, { a: 'x' })).toBe(true);
    expect(ruleShows({ action: 'show', match: 'all', conditions }, { a: 'x' })).toBe(false);
  });

  it('hides the fields of a document its document_conditions hide', () => {
    const preferences = {
      document_conditions: { 'doc-b': { action: 'hide', conditions: [{ field_uuid: 'kind', operator: 'equals', value: 'simple' }] } },
    };
    const fields = [field('kind'), field('extra', { areas: [{ attachment_uuid: 'doc-b' }] })];
    expect([...hiddenFields(fields, preferences, { kind: 'simple' })]).toEqual(['extra']);
    expect([...hiddenFields(fields, preferences, { kind: 'full' })]).toEqual([]);
  });

  it('hides a field by its own preferences.condition', () => {
    const fields = [
      field('spouse', { preferences: { condition: { action: 'show', conditions: [{ field_uuid: 'married', operator: 'checked' }] } } }),
    ];
    expect(hiddenFields(fields, {}, { married: false }).has('spouse')).toBe(true);
  });
});

describe('withFormulas', () => {
  it('computes formula fields from other fields, formulas of formulas included', () => {
    const fields = [
      field('p', { name: 'Price' }),
      field('q', { name: 'Qty' }),
      field('t', { name: 'Total', formula: '{Price} * {Qty}' }),
      field('g', { name: 'Gross', formula: '{total} * 2' }),
    ];
    expect(withFormulas(fields, { p: '2.5', q: 4 })).toMatchObject({ t: 10, g: 20 });
  });

  it('leaves a formula null while a referenced field is blank', () => {
    const fields = [field('p', { name: 'Price' }), field('t', { name: 'Total', formula: '{Price} + 1' })];
    expect(withFormulas(fields, {}).t).toBeNull();
  });
});

describe('reviewedFields', () => {
  it('reviews fields on carousel documents unless they opt out, and fields that opt in anywhere', () => {
    const fields = [
      field('on-doc'),
      field('opt-out', { preferences: { review_in_carousel: false } }),
      field('opt-in', { areas: [{ attachment_uuid: 'doc-b' }], preferences: { review_in_carousel: true } }),
      field('elsewhere', { areas: [{ attachment_uuid: 'doc-b' }] }),
    ];
    expect(reviewedFields(fields, { carousel_review_documents: ['doc-a'] }, new Set()).map((f) => f.uuid)).toEqual(['on-doc', 'opt-in']);
  });

  it('never reviews hidden fields or stamps', () => {
    const fields = [
      field('hidden', { preferences: { review_in_carousel: true } }),
      field('stamp', { type: 'stamp', preferences: { review_in_carousel: true } }),
    ];
    expect(reviewedFields(fields, {}, new Set(['hidden']))).toEqual([]);
  });
});
