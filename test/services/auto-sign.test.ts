// autoSignValues: generated signatures for submitters the API already filled (spec › auto_sign).
import { describe, expect, it } from 'vitest';
import { autoSignValues, initialsOf } from '../../src/services/submissions/auto-sign';
import { checkFieldValue } from '../../src/shared/field-values';
import type { Submitter, TemplateField } from '../../src/db/schema/index';

const ROLE = 'role-1';
function field(uuid: string, type: TemplateField['type'], extra: Partial<TemplateField> = {}): TemplateField {
  return { uuid, name: uuid, type, submitter_uuid: ROLE, required: true, readonly: false, areas: [], preferences: {}, ...extra };
}
function submitter(values: Record<string, unknown>, extra: Partial<Submitter> = {}): Submitter {
  return { roleUuid: ROLE, name: 'Zoë de Vries', email: 'zoe@example.com', values, ...extra } as Submitter;
}
function scope(fields: TemplateField[]) {
  return { template: { id: 1, publicId: 'tpl_x', name: 'T', roles: [], fields, preferences: {}, documents: [] } };
}

describe('autoSignValues', () => {
  it('signs blank signature and initials fields with the name and its initials when everything else is prefilled', () => {
    const fields = [field('sig', 'signature'), field('ini', 'initials'), field('name', 'text')];
    expect(autoSignValues(scope(fields), submitter({ name: 'Zoë' }))).toEqual({ name: 'Zoë', sig: 'Zoë de Vries', ini: 'ZDV' });
  });

  it('returns null when a required field other than a signature is blank', () => {
    const fields = [field('sig', 'signature'), field('name', 'text')];
    expect(autoSignValues(scope(fields), submitter({}))).toBeNull();
  });

  it('does not wait for optional, read-only, formula or date-now fields', () => {
    const fields = [
      field('sig', 'signature'),
      field('opt', 'text', { required: false }),
      field('ro', 'text', { readonly: true }),
      field('sum', 'number', { formula: '{a} + 1' }),
      field('today', 'datenow'),
    ];
    expect(autoSignValues(scope(fields), submitter({}))).toEqual({ sig: 'Zoë de Vries' });
  });

  it('keeps a prefilled signature', () => {
    const fields = [field('sig', 'signature')];
    expect(autoSignValues(scope(fields), submitter({ sig: 'data:image/png;base64,AAAA' }))).toEqual({ sig: 'data:image/png;base64,AAAA' });
  });

  it('ignores fields of other roles', () => {
    const fields = [field('sig', 'signature'), field('theirs', 'text', { submitter_uuid: 'other' })];
    expect(autoSignValues(scope(fields), submitter({}))).toEqual({ sig: 'Zoë de Vries' });
  });

  it('returns null when the role has no signature or initials field', () => {
    expect(autoSignValues(scope([field('name', 'text')]), submitter({ name: 'x' }))).toBeNull();
  });

  it('signs with the email name when the submitter has no name', () => {
    expect(autoSignValues(scope([field('sig', 'signature')]), submitter({}, { name: null }))).toEqual({ sig: 'zoe' });
  });

  it('produces values the field rules accept', () => {
    const fields = [field('sig', 'signature'), field('ini', 'initials')];
    const values = autoSignValues(scope(fields), submitter({}))!;
    for (const f of fields) expect(checkFieldValue(f, values[f.uuid])).toMatchObject({ ok: true });
  });

  it('takes the first letter of up to three words for initials', () => {
    expect(initialsOf('anna maria van der berg')).toBe('AMV');
    expect(initialsOf('Jean-Luc Picard')).toBe('JLP');
  });
});
