// preferences.brand_id on templates and submissions: only the account's own brands; any other id is the same 422.
import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { createBrand, createTemplate } from './fixtures';

describe('a template’s preferences.brand_id', () => {
  it('accepts a brand of the account', async () => {
    const a = await createAccount();
    const brandId = await createBrand(a.token, 'Acme', {});
    const res = await createTemplate(a.token, { brand_id: brandId });
    expect(res.status).toBe(201);
    expect(res.json.preferences.brand_id).toBe(brandId);
  });

  it('refuses another account’s brand on create with the sentence an unknown id gets', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const theirs = await createBrand(b.token, 'Theirs', {});
    const res = await createTemplate(a.token, { brand_id: theirs });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`preferences.brand_id ${theirs} is not a brand of this account.`);
  });

  it('refuses an unknown brand id on create', async () => {
    const a = await createAccount();
    const res = await createTemplate(a.token, { brand_id: 999_999_999 });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('preferences.brand_id 999999999 is not a brand of this account.');
  });

  it('refuses another account’s brand on update and keeps the template as it was', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const theirs = await createBrand(b.token, 'Theirs', {});
    const template = (await createTemplate(a.token)).json;
    const res = await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { brand_id: theirs } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`preferences.brand_id ${theirs} is not a brand of this account.`);
    expect((await api('GET', `/api/templates/${template.id}`, { token: a.token })).json.preferences).not.toHaveProperty('brand_id');
  });

  it('accepts the account’s brand on update, and null clears it', async () => {
    const a = await createAccount();
    const brandId = await createBrand(a.token, 'Acme', {});
    const template = (await createTemplate(a.token)).json;
    const set = await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { brand_id: brandId } } });
    expect(set.status).toBe(200);
    expect(set.json.preferences.brand_id).toBe(brandId);
    const cleared = await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { brand_id: null } } });
    expect(cleared.json.preferences).not.toHaveProperty('brand_id');
  });

  it('lets a template whose brand was deleted still be edited', async () => {
    const a = await createAccount();
    const brandId = await createBrand(a.token, 'Acme', {});
    const template = (await createTemplate(a.token, { brand_id: brandId })).json;
    await api('DELETE', `/api/brands/${brandId}`, { token: a.token });
    expect((await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { name: 'Renamed' } })).status).toBe(200);
  });
});

describe('a submission’s preferences.brand_id', () => {
  async function submit(token: string, templateId: string, preferences: Record<string, unknown>) {
    return api('POST', '/api/submissions', {
      token,
      body: { template_id: templateId, submitters: [{ role: 'Signer', email: 'x@example.com' }], preferences },
    });
  }

  it('accepts a brand of the account', async () => {
    const a = await createAccount();
    const brandId = await createBrand(a.token, 'Acme', {});
    const template = (await createTemplate(a.token)).json;
    expect((await submit(a.token, template.id, { brand_id: brandId })).status).toBe(201);
  });

  it('refuses another account’s brand with the sentence an unknown id gets', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const theirs = await createBrand(b.token, 'Theirs', {});
    const template = (await createTemplate(a.token)).json;
    const res = await submit(a.token, template.id, { brand_id: theirs });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`preferences.brand_id ${theirs} is not a brand of this account.`);
  });

  it('refuses an unknown brand id', async () => {
    const a = await createAccount();
    const template = (await createTemplate(a.token)).json;
    const res = await submit(a.token, template.id, { brand_id: 123_456_789 });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('preferences.brand_id 123456789 is not a brand of this account.');
  });

  it('refuses another account’s brand on a draft edit', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const theirs = await createBrand(b.token, 'Theirs', {});
    const template = (await createTemplate(a.token)).json;
    const draft = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, draft: true, submitters: [{ role: 'Signer', email: 'x@example.com' }] },
    });
    const res = await api('PUT', `/api/submissions/${draft.json.id}`, { token: a.token, body: { preferences: { brand_id: theirs } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`preferences.brand_id ${theirs} is not a brand of this account.`);
  });

  it('accepts the account’s brand on a draft edit', async () => {
    const a = await createAccount();
    const brandId = await createBrand(a.token, 'Acme', {});
    const template = (await createTemplate(a.token)).json;
    const draft = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, draft: true, submitters: [{ role: 'Signer', email: 'x@example.com' }] },
    });
    expect(
      (await api('PUT', `/api/submissions/${draft.json.id}`, { token: a.token, body: { preferences: { brand_id: brandId } } })).status,
    ).toBe(200);
  });
});
