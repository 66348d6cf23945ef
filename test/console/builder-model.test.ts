// The builder's pure parts (src/console/builder/builder-model.ts): areas kept on the page, the body sent
// to PUT /api/templates/{id}, the API's sentences sorted by field, and undo snapshots.
import { describe, expect, it } from 'vitest';
import { History, clampArea, draftForSave, resizeArea, sortErrors, type Draft } from '../../src/console/builder/builder-model';

const DOC = '6f1b6c1e-7a52-4b8e-9d51-0c6b1a3e2f10';
const area = { page: 2, x: 0.15048543689320387, y: 0.19954283034903145, w: 0.25, h: 0.03, attachment_uuid: DOC };

function draft(): Draft {
  return {
    name: 'Contract',
    folder_name: 'Default',
    submitters: [{ name: 'First Party', uuid: 'a0000000-0000-4000-8000-000000000001' }],
    fields: [
      {
        uuid: 'f0000000-0000-4000-8000-000000000001',
        name: 'Name',
        type: 'text',
        submitter_uuid: 'a0000000-0000-4000-8000-000000000001',
        required: true,
        readonly: false,
        placeholder: '',
        areas: [area],
        preferences: {},
      },
      {
        uuid: 'f0000000-0000-4000-8000-000000000002',
        name: 'Total',
        type: 'number',
        submitter_uuid: 'a0000000-0000-4000-8000-000000000001',
        required: true,
        readonly: false,
        formula: '{Price} * 2',
        areas: [area],
        preferences: {},
      },
    ],
    preferences: { display_title: 'Sign here', something_the_api_added: 1 },
  };
}

describe('clampArea', () => {
  it('leaves an area inside its page exactly as placed', () => {
    expect(clampArea(area)).toEqual(area);
  });

  it('moves an area that runs over the right or bottom edge back onto the page', () => {
    expect(clampArea({ ...area, x: 0.9, y: 0.99 })).toMatchObject({ x: 0.75, y: 0.97 });
  });

  it('keeps a side no smaller than 0.5 % of the page', () => {
    expect(clampArea({ ...area, w: -1, h: 0 })).toMatchObject({ w: 0.005, h: 0.005 });
  });
});

describe('resizeArea', () => {
  it('keeps the top-left corner and stops the size at the page edge', () => {
    expect(resizeArea({ ...area, x: 0.8, y: 0.5 }, 0.5, 0.01)).toMatchObject({ x: 0.8, y: 0.5, w: 1 - 0.8, h: 0.04 });
  });

  it('never shrinks a side below 0.5 % of the page', () => {
    expect(resizeArea(area, -1, -1)).toMatchObject({ x: area.x, y: area.y, w: 0.005, h: 0.005 });
  });
});

describe('draftForSave', () => {
  it('sends areas unrounded and leaves out empty optional properties', () => {
    const body = draftForSave(draft()) as { fields: Record<string, unknown>[] };
    expect(body.fields[0].areas).toEqual([area]);
    expect(body.fields[0]).not.toHaveProperty('placeholder');
    expect(body.fields[1].formula).toBe('{Price} * 2');
  });

  it('sends only the preference keys the templates API takes', () => {
    expect(draftForSave(draft()).preferences).toEqual({ display_title: 'Sign here' });
  });
});

describe('sortErrors', () => {
  it('puts a fields[i] sentence with the i-th field of the draft and the rest apart', () => {
    const sorted = sortErrors(
      ['fields[1] "Total": formula refers to {Price}, which is no field.', 'submitters[0] repeats a name.', 'Something else.'],
      draft(),
    );
    expect([...sorted.byField.entries()]).toEqual([
      ['f0000000-0000-4000-8000-000000000002', ['fields[1] "Total": formula refers to {Price}, which is no field.']],
    ]);
    expect(sorted.roles).toEqual(['submitters[0] repeats a name.']);
    expect(sorted.general).toEqual(['Something else.']);
  });
});

describe('History', () => {
  it('gives back the snapshots in reverse order and then nothing', () => {
    const history = new History();
    const first = draft();
    history.record(first);
    const second = { ...draft(), name: 'Second' };
    history.record(second);
    expect(history.undo()?.name).toBe('Second');
    expect(history.undo()?.name).toBe('Contract');
    expect(history.undo()).toBeNull();
  });
});
