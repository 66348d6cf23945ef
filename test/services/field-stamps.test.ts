import { describe, expect, it } from 'vitest';
import type { Submitter, TemplateField } from '../../src/db/schema/index';
import { stampsForDocument } from '../../src/services/sealing/field-stamps';

const doc = { uuid: 'doc-1', pageCount: 1 };
const area = { page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05, attachment_uuid: 'doc-1' };
const field = (uuid: string, type = 'text'): TemplateField =>
  ({ uuid, name: uuid, type, submitter_uuid: 'role', required: false, readonly: false, areas: [area], preferences: {} }) as TemplateField;
const signer = { roleUuid: 'role', values: { a: 'Shown', b: 'Hidden', c: true } } as unknown as Submitter;

describe('stampsForDocument', () => {
  it('draws every filled field at its areas', () => {
    const stamps = stampsForDocument([field('a'), field('b'), field('c', 'checkbox')], [signer], doc);
    expect(stamps.map((s) => s.value)).toEqual([{ kind: 'text', text: 'Shown' }, { kind: 'text', text: 'Hidden' }, { kind: 'check', checked: true }]);
  });

  it('draws nothing for fields their conditions hid', () => {
    const stamps = stampsForDocument([field('a'), field('b')], [signer], doc, new Set(['b']));
    expect(stamps.map((s) => s.value)).toEqual([{ kind: 'text', text: 'Shown' }]);
  });
});
