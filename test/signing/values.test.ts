// PUT /s/:slug/values: autosave with the server's own checks, field.updated and form.started.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { eventsOf, page, signingFixture, submitterRow, acceptDisclosure } from './fixtures';

const fields = [
  { name: 'Name', type: 'text' },
  { name: 'Zip', type: 'text', validation: 'zip', required: false },
  { name: 'Price', type: 'number' },
  { name: 'Qty', type: 'number' },
  { name: 'Total', type: 'number', formula: '{Price} * {Qty}', readonly: true },
  { name: 'Colour', type: 'select', options: ['Red', 'Blue'] },
  { name: 'Signature', type: 'signature' },
];

describe('PUT /s/:slug/values', () => {
  it("saves values, computes formulas and returns only this signer's values", async () => {
    const f = await signingFixture({ fields });
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: { [f.field('Price')]: '2.5', [f.field('Qty')]: 4 } },
    });
    expect(res.status).toBe(200);
    expect(res.json.values).toMatchObject({ [f.field('Price')]: 2.5, [f.field('Qty')]: 4, [f.field('Total')]: 10 });
    expect(JSON.parse((await submitterRow(f.submitters[0].id)).values)[f.field('Total')]).toBe(10);
  });

  it('fires field.updated with old and new value and was_prefilled, and form.started once', async () => {
    const f = await signingFixture({ fields, submitters: [{ email: 'p@example.com', name: 'Pat', values: { Name: 'Prefilled Pat' } }] });
    const slug = f.submitters[0].slug;
    await page('PUT', `/s/${slug}/values`, { body: { values: { [f.field('Name')]: 'Pat Typed' } } });
    await page('PUT', `/s/${slug}/values`, { body: { values: { [f.field('Colour')]: 'Red' } } });
    const updates = await eventsOf(f.account.accountId, 'field.updated');
    expect(updates.map((e) => e.data.field)).toEqual([
      { uuid: f.field('Name'), name: 'Name', type: 'text', old_value: 'Prefilled Pat', new_value: 'Pat Typed', was_prefilled: true },
      { uuid: f.field('Colour'), name: 'Colour', type: 'select', old_value: null, new_value: 'Red', was_prefilled: false },
    ]);
    expect(updates[0].data.submitter.email).toBe('p@example.com');
    expect(await eventsOf(f.account.accountId, 'form.started')).toHaveLength(1);
  });

  it('fires nothing when the value did not change', async () => {
    const f = await signingFixture({ fields });
    const slug = f.submitters[0].slug;
    await page('PUT', `/s/${slug}/values`, { body: { values: { [f.field('Name')]: 'Same' } } });
    await page('PUT', `/s/${slug}/values`, { body: { values: { [f.field('Name')]: 'Same' } } });
    expect(await eventsOf(f.account.accountId, 'field.updated')).toHaveLength(1);
  });

  it('refuses a value its preset, options or type reject with a sentence naming the field', async () => {
    const f = await signingFixture({ fields });
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: { [f.field('Zip')]: 'ABCDE', [f.field('Colour')]: 'Green' } },
    });
    expect(res.status).toBe(422);
    // The signer's sentences (the catalog's, as the page's own check words them).
    expect(res.json.error).toEqual(['“Zip” must be a US ZIP code like 12345 or 12345-6789.', 'Choose one of the options of “Colour”.']);
  });

  it("refuses another role's field and a formula field", async () => {
    const f = await signingFixture({
      roles: ['A', 'B'],
      fields: [...fields, { name: 'Theirs', type: 'text', role: 'B' }],
      order: 'parallel',
    });
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: { [f.field('Theirs')]: 'x', [f.field('Total')]: 3 } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([`${f.field('Theirs')} is not one of your fields.`, 'Field "Total" is read-only.']);
  });

  it('answers 400 for a body that is not JSON and never 500', async () => {
    const f = await signingFixture({ fields });
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: '{nope', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    const arr = await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: [1, 2] } });
    expect(arr.status).toBe(400);
  });

  it('refuses a request from another origin (CSRF)', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: {} },
      headers: { Origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    const form = await api('POST', `/s/${f.submitters[0].slug}/decline`, {
      body: 'reason=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(403);
  });

  it('answers 404 for an unknown slug', async () => {
    const res = await page('PUT', '/s/UnknownSlug00000000/values', { body: { values: {} } });
    expect(res.status).toBe(404);
  });

  it('refuses saving once the signer completed (rule 3)', async () => {
    const f = await signingFixture({ fields: [{ name: 'Name', type: 'text' }] });
    const slug = f.submitters[0].slug;
    await acceptDisclosure(slug);
    await page('POST', `/s/${slug}/submit`, { body: { values: { [f.field('Name')]: 'Done' } } });
    const res = await page('PUT', `/s/${slug}/values`, { body: { values: { [f.field('Name')]: 'Later' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('You have already completed this form.');
  });
});
