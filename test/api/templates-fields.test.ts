// Template fields and roles: every type, role references, and each validation rule naming the field.
import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';

const area = { page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 };

async function create(token: string, body: Record<string, unknown>, pages = 2) {
  const file = toBase64(await makePdf(pages));
  return api('POST', '/api/templates/pdf', { token, body: { name: 'Fields', documents: [{ name: 'doc', file }], ...body } });
}

describe('template fields', () => {
  it('accepts every field type with an area', async () => {
    const a = await createAccount();
    const types = [
      'text',
      'signature',
      'initials',
      'date',
      'datenow',
      'checkbox',
      'radio',
      'select',
      'number',
      'phone',
      'image',
      'stamp',
      'cells',
      'payment',
      'file',
    ];
    const fields = types.map((type) => ({
      type,
      areas: [area],
      ...(type === 'select' || type === 'radio' ? { options: ['A', 'B'] } : {}),
      ...(type === 'payment' ? { preferences: { amount: 10, currency: 'USD' } } : {}),
    }));
    const res = await create(a.token, { fields });
    expect(res.status).toBe(201);
    expect(res.json.schema.map((f: { type: string }) => f.type)).toEqual(types);
  });

  it('names unnamed fields after their type and count', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ type: 'text' }, { type: 'text' }, { type: 'signature' }] });
    expect(res.json.schema.map((f: { name: string }) => f.name)).toEqual(['Text Field 1', 'Text Field 2', 'Signature Field 1']);
  });

  it('returns area numbers exactly as given, in points as well as fractions', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [
        { type: 'text', areas: [{ page: 1, x: 0.123456789, y: 0.3333333333, w: 0.1, h: 0.02 }] },
        { type: 'text', areas: [{ page: 2, x: 72.25, y: 100.5, w: 144, h: 18 }] },
      ],
    });
    expect(res.json.schema[0].areas[0]).toMatchObject({ page: 1, x: 0.123456789, y: 0.3333333333, w: 0.1, h: 0.02 });
    expect(res.json.schema[1].areas[0]).toMatchObject({ page: 2, x: 72.25, y: 100.5, w: 144, h: 18 });
  });

  it('places a field on any document by attachment_uuid or by listing it under the document', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: {
        documents: [
          { name: 'one', file: toBase64(await makePdf(1)) },
          { name: 'two', file: toBase64(await makePdf(3)), fields: [{ name: 'On two', type: 'text', areas: [{ ...area, page: 3 }] }] },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.schema[0].areas[0].attachment_uuid).toBe(res.json.documents[1].uuid);
  });

  it('requires attachment_uuid on top-level fields when there are several documents', async () => {
    const a = await createAccount();
    const file = toBase64(await makePdf());
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ file }, { file }], fields: [{ name: 'Where', type: 'text', areas: [area] }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Where": areas[0].attachment_uuid is required because the template has several documents.');
  });

  it('derives roles from the fields’ role names when submitters are omitted', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [
        { type: 'signature', role: 'Buyer' },
        { type: 'signature', role: 'Seller' },
        { type: 'date', role: 'buyer' },
      ],
    });
    expect(res.json.submitters.map((s: { name: string }) => s.name)).toEqual(['Buyer', 'Seller']);
    expect(res.json.schema[2].submitter_uuid).toBe(res.json.submitters[0].uuid);
  });

  it('links a field to a role by submitter_uuid', async () => {
    const a = await createAccount();
    const uuid = '7b0c1f4e-8a57-4d0e-9a3e-1f2b3c4d5e6f';
    const res = await create(a.token, {
      submitters: [{ name: 'A' }, { name: 'B', uuid }],
      fields: [{ type: 'text', submitter_uuid: uuid }],
    });
    expect(res.status).toBe(201);
    expect(res.json.submitters[1]).toEqual({ name: 'B', uuid });
    expect(res.json.schema[0].submitter_uuid).toBe(uuid);
  });

  it('refuses a role name that is not a template submitter', async () => {
    const a = await createAccount();
    const res = await create(a.token, { submitters: [{ name: 'Tenant' }], fields: [{ name: 'Sig', type: 'signature', role: 'Landlord' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Sig": role "Landlord" must match a template submitter ("Tenant").');
  });

  it('refuses duplicate role names', async () => {
    const a = await createAccount();
    const res = await create(a.token, { submitters: [{ name: 'Signer' }, { name: 'signer' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('submitters[1] repeats the role name "signer"; role names must be unique.');
  });

  it('refuses an unknown field type naming the field', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'X', type: 'hologram' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^fields\[0\] "X": type "hologram" is not a field type; use one of: text, signature/);
  });

  it('refuses an area on a page the document does not have', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Late', type: 'text', areas: [{ ...area, page: 3 }] }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Late": areas[0].page 3 is outside the document, which has 2 pages numbered from 1.');
  });

  it('refuses an area that extends past the edge of the page', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Wide', type: 'text', areas: [{ page: 1, x: 0.9, y: 0.1, w: 0.2, h: 0.05 }] }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Wide": areas[0] extends past the edge of page 1 (x + w and y + h must be at most 1).');
  });

  it('refuses a point area past the page size', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Off', type: 'text', areas: [{ page: 1, x: 600, y: 10, w: 100, h: 20 }] }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Off": areas[0] extends past the edge of page 1, which is 612 × 792 points.');
  });

  it('refuses an area on a document that is not the template’s', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [{ name: 'Lost', type: 'text', areas: [{ ...area, attachment_uuid: '00000000-0000-4000-8000-000000000000' }] }],
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[0] "Lost": areas[0].attachment_uuid 00000000-0000-4000-8000-000000000000 is not a document of this template.',
    );
  });

  it('refuses a select field without options', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Colour', type: 'select' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Colour": a select field needs options listing its choices.');
  });

  it('refuses a radio field with an empty options list', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Size', type: 'radio', options: [] }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Size": a radio field needs options listing its choices.');
  });

  it('refuses an invalid regular expression pattern', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Code', type: 'text', pattern: '([a-z' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[0] "Code": pattern is not a valid regular expression: missing closing ]: `[a-z`. Patterns run on a linear-time engine, without lookarounds or backreferences.',
    );
  });

  it('refuses a pattern only a backtracking engine can run, saying why', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Code', type: 'text', pattern: '(?=.*\\d)[a-z0-9]+' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[0] "Code": pattern is not a valid regular expression: invalid or unsupported Perl syntax: `(?=`. Patterns run on a linear-time engine, without lookarounds or backreferences.',
    );
  });

  it('keeps a valid pattern and a known validation preset', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [
        { type: 'text', pattern: '^[A-Z]{3}$' },
        { type: 'text', validation: 'ssn' },
      ],
    });
    expect(res.json.schema[0].pattern).toBe('^[A-Z]{3}$');
    expect(res.json.schema[1].validation).toBe('ssn');
  });

  it('takes DocuSeal’s {pattern, message} validation object as the pattern', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ type: 'text', validation: { pattern: '^\\d+$', message: 'Digits only' } }] });
    expect(res.json.schema[0].pattern).toBe('^\\d+$');
  });

  it('refuses an unknown validation preset', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Tax', type: 'text', validation: 'vat' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[0] "Tax": validation "vat" is not a known preset; use one of ssn, ein, zip, us_phone, mm_dd_yyyy, email, url, numbers_only, letters_only.',
    );
  });

  it('accepts a formula over other fields with + - * / and parentheses', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [
        { name: 'Price', type: 'number' },
        { name: 'Qty', type: 'number' },
        { name: 'Total', type: 'number', formula: '({Price} * {Qty} - 2.5) / 1.2 + -1' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.json.schema[2].formula).toBe('({Price} * {Qty} - 2.5) / 1.2 + -1');
  });

  it('refuses a formula that references a missing field', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Total', type: 'number', formula: '{Price} * 2' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Total": formula references {Price}, which is not a field of this template.');
  });

  it('refuses a formula with anything beyond arithmetic', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [
        { name: 'Price', type: 'number' },
        { name: 'Hack', type: 'number', formula: '{Price}; alert(1)' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[1] "Hack": formula may only contain numbers, {Field Name} references, + - * / and parentheses; ";" at position 8 is not allowed.',
    );
  });

  it('refuses a formula with unbalanced parentheses', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ name: 'Bad', type: 'number', formula: '(1 + 2' }] });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Bad": formula has a "(" without a matching ")".');
  });

  it('refuses formulas that depend on each other in a cycle', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [
        { name: 'A', type: 'number', formula: '{B} + 1' },
        { name: 'B', type: 'number', formula: '{A} * 2' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/formula depends on itself/);
  });

  it('lists every problem at once when several fields are wrong', async () => {
    const a = await createAccount();
    const res = await create(a.token, {
      fields: [
        { name: 'S', type: 'select' },
        { name: 'P', type: 'text', pattern: '[' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      'fields[0] "S": a select field needs options listing its choices.',
      'fields[1] "P": pattern is not a valid regular expression: missing closing ]: `[`. Patterns run on a linear-time engine, without lookarounds or backreferences.',
    ]);
  });

  it('refuses two fields with the same uuid', async () => {
    const a = await createAccount();
    const uuid = '11111111-2222-4333-8444-555555555555';
    const res = await create(a.token, {
      fields: [
        { type: 'text', uuid },
        { name: 'Twin', type: 'text', uuid },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`fields[1] "Twin": uuid ${uuid} is used by another field; field uuids must be unique.`);
  });

  it('keeps the tri-state review_in_carousel preference', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ type: 'text', preferences: { review_in_carousel: false } }, { type: 'text' }] });
    expect(res.json.schema[0].preferences).toEqual({ review_in_carousel: false });
    expect(res.json.schema[1].preferences).toEqual({});
  });

  it('keeps a date field’s format, and answers 400 when it is not text', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ type: 'date', preferences: { format: 'DD/MM/YYYY' } }] });
    expect(res.status).toBe(201);
    expect(res.json.schema[0].preferences).toEqual({ format: 'DD/MM/YYYY' });
    expect((await create(a.token, { fields: [{ type: 'date', preferences: { format: 12 } }] })).status).toBe(400);
  });

  it('answers 400 when an area number is not a number', async () => {
    const a = await createAccount();
    const res = await create(a.token, { fields: [{ type: 'text', areas: [{ ...area, x: 'left' }] }] });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('fields[0].areas[0].x must be a number.');
  });
});
