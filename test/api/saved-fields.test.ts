// GET/POST/DELETE /api/settings/saved_fields: reusable field configurations per account.
import { describe, expect, it } from 'vitest';
import { api, createAccount, createToken } from '../helpers';

const field = { type: 'select', options: ['Red', 'Green'], required: false };

describe('POST /api/settings/saved_fields', () => {
  it('saves a field configuration', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'Colour', field } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'Colour',
      field: { type: 'select', options: ['Red', 'Green'], required: false },
      author_id: a.userId,
    });
    expect(res.json.id).toEqual(expect.any(Number));
  });

  it('refuses a select configuration without options, naming the problem', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'Colour', field: { type: 'select' } } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('field: a select field needs options listing its choices.');
  });

  it('refuses an invalid formula', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/settings/saved_fields', {
      token: a.token,
      body: { name: 'Sum', field: { type: 'number', formula: '{A} ^ 2' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^field: formula may only contain numbers/);
  });

  it('refuses a name the account already uses, ignoring case', async () => {
    const a = await createAccount();
    await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'Colour', field } });
    const res = await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'colour', field } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name "colour" is already used by another saved field.');
  });

  it('lets two accounts use the same name', async () => {
    const a = await createAccount();
    const b = await createAccount();
    await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'Colour', field } });
    expect((await api('POST', '/api/settings/saved_fields', { token: b.token, body: { name: 'Colour', field } })).status).toBe(201);
  });

  it('answers 403 to a token without account:write', async () => {
    const a = await createAccount();
    const token = await createToken(a.accountId, a.userId, ['account:read']);
    const res = await api('POST', '/api/settings/saved_fields', { token, body: { name: 'Colour', field } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('answers 401 without a token', async () => {
    expect((await api('POST', '/api/settings/saved_fields', { body: { name: 'Colour', field } })).status).toBe(401);
  });
});

describe('GET /api/settings/saved_fields', () => {
  it('lists only the account’s saved fields, newest first', async () => {
    const a = await createAccount();
    const b = await createAccount();
    await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'One', field } });
    await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'Two', field: { type: 'text', validation: 'zip' } } });
    await api('POST', '/api/settings/saved_fields', { token: b.token, body: { name: 'Theirs', field } });
    const res = await api('GET', '/api/settings/saved_fields', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data.map((f: { name: string }) => f.name)).toEqual(['Two', 'One']);
    expect(res.json.pagination).toEqual({ count: 2, next: null, prev: null });
  });

  it('answers 403 to a token without account:read', async () => {
    const a = await createAccount();
    const token = await createToken(a.accountId, a.userId, ['templates:read']);
    expect((await api('GET', '/api/settings/saved_fields', { token })).status).toBe(403);
  });
});

describe('DELETE /api/settings/saved_fields/{id}', () => {
  it('deletes a saved field', async () => {
    const a = await createAccount();
    const saved = (await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'Gone', field } })).json;
    const res = await api('DELETE', `/api/settings/saved_fields/${saved.id}`, { token: a.token });
    expect(res.status).toBe(204);
    expect((await api('GET', '/api/settings/saved_fields', { token: a.token })).json.data).toEqual([]);
  });

  it('answers 404 for another account’s saved field and keeps it', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const saved = (await api('POST', '/api/settings/saved_fields', { token: a.token, body: { name: 'Mine', field } })).json;
    expect((await api('DELETE', `/api/settings/saved_fields/${saved.id}`, { token: b.token })).status).toBe(404);
    expect((await api('GET', '/api/settings/saved_fields', { token: a.token })).json.data).toHaveLength(1);
  });

  it('refuses an id that is not an integer', async () => {
    const a = await createAccount();
    const res = await api('DELETE', '/api/settings/saved_fields/abc', { token: a.token });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('id must be an integer id.');
  });
});
