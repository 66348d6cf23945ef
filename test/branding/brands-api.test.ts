// /api/brands: create, list, read, update, delete; names unique per account ignoring case, even when creates race.
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount, createToken, shardOf } from '../helpers';

const branding = {
  company_name: 'Acme',
  primary_button_color: '#0f766e',
  header_color: '#112233',
  logo_url: 'https://acme.test/logo.png',
  show_branding: false,
};

async function createBrand(token: string, body: Record<string, unknown> = { name: 'Acme', branding }) {
  return api('POST', '/api/brands', { token, body });
}

describe('POST /api/brands', () => {
  it('creates a brand with its name trimmed and its branding as sent', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: '  Acme  ', branding });
    expect(res.status).toBe(201);
    expect(res.json.brand).toEqual({
      id: expect.any(Number),
      name: 'Acme',
      branding,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('drops branding keys sent as null or an empty string', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: 'Acme', branding: { company_name: 'Acme', logo_url: '', header_color: null } });
    expect(res.status).toBe(201);
    expect(res.json.brand.branding).toEqual({ company_name: 'Acme' });
  });

  it('refuses a missing name with a 422 sentence, as the Create brand table says', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { branding });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name is required.');
    expect((await api('GET', '/api/brands', { token: a.token })).json.data).toEqual([]);
  });

  it('refuses a name that is not text with a 422 sentence', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: 42 });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name must be a string.');
  });

  it('declares 422 for Create brand in the OpenAPI document', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    expect(doc.paths['/brands'].post.responses['422'].description).toMatch(/missing/i);
  });

  it('refuses a name of only spaces', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: '   ' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name is required.');
  });

  it('refuses a name over 120 characters', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: 'x'.repeat(121) });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name must be at most 120 characters.');
  });

  it('accepts a name of 120 characters once trimmed', async () => {
    const a = await createAccount();
    expect((await createBrand(a.token, { name: ` ${'x'.repeat(120)} ` })).status).toBe(201);
  });

  it('refuses a name the account already uses, ignoring case', async () => {
    const a = await createAccount();
    await createBrand(a.token, { name: 'Acme' });
    const res = await createBrand(a.token, { name: 'ACME ' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name "ACME" is already used by another brand of this account.');
  });

  it('lets exactly one of two concurrent creates of the same name ignoring case win', async () => {
    const a = await createAccount();
    const results = await Promise.all([createBrand(a.token, { name: 'Race' }), createBrand(a.token, { name: 'race' })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    const rows = await (await shardOf(a.accountId))
      .prepare('SELECT count(*) AS n FROM brands WHERE account_id = ?')
      .bind(a.accountId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it('enforces the unique name in the database itself, not only in code', async () => {
    const a = await createAccount();
    const db = await shardOf(a.accountId);
    await db.prepare("INSERT INTO brands (account_id, name, branding) VALUES (?, 'Acme', '{}')").bind(a.accountId).run();
    await expect(
      db.prepare("INSERT INTO brands (account_id, name, branding) VALUES (?, 'aCmE', '{}')").bind(a.accountId).run(),
    ).rejects.toThrow(/UNIQUE/);
  });

  it('lets two accounts use the same name', async () => {
    const a = await createAccount();
    const b = await createAccount();
    await createBrand(a.token);
    expect((await createBrand(b.token)).status).toBe(201);
  });

  it('answers 403 to an editor', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    const res = await createBrand(editor.token);
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Only account admins can perform this operation.');
  });

  it('answers 403 to an admin token without account:write', async () => {
    const a = await createAccount();
    const token = await createToken(a.accountId, a.userId, ['account:read']);
    const res = await createBrand(token);
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('answers 401 without a token', async () => {
    expect((await createBrand(null as unknown as string)).status).toBe(401);
  });
});

describe('branding rules', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'an unknown key',
      { colour: '#000000' },
      'branding.colour is not a branding key; use display_title, logo_url, company_name, favicon_url, primary_button_color, header_color, show_branding.',
    ],
    ['a number for a text key', { company_name: 5 }, 'branding.company_name must be a string.'],
    ['a string for show_branding', { show_branding: 'no' }, 'branding.show_branding must be true or false.'],
    ['an object for a URL', { logo_url: { href: 'https://a.test' } }, 'branding.logo_url must be a string.'],
    ['a javascript: logo URL', { logo_url: 'javascript:alert(1)' }, 'branding.logo_url must be an http(s) URL.'],
    ['a data: favicon URL', { favicon_url: 'data:image/png;base64,AAAA' }, 'branding.favicon_url must be an http(s) URL.'],
    ['a header colour without #', { header_color: '112233' }, 'branding.header_color must be a colour like #1a2b3c.'],
    ['a three-digit header colour', { header_color: '#123' }, 'branding.header_color must be a colour like #1a2b3c.'],
    ['a named button colour', { primary_button_color: 'red' }, 'branding.primary_button_color must be a colour like #1a2b3c.'],
    [
      'a header colour brighter than 50% luminance',
      { header_color: '#808080' },
      'branding.header_color #808080 is too light; choose a colour with luminance at most 50% so white header text stays readable.',
    ],
  ];
  for (const [what, sent, sentence] of cases) {
    it(`refuses ${what} with a 422 naming the key`, async () => {
      const a = await createAccount();
      const res = await createBrand(a.token, { name: 'Acme', branding: sent });
      expect(res.status).toBe(422);
      expect(res.json.error).toBe(sentence);
    });
  }

  it('accepts a header colour of luminance exactly 50% or less', async () => {
    const a = await createAccount();
    // #7f7f7f: 0.299·127 + 0.587·127 + 0.114·127 = 127 ≤ 127.5 (50% of 255).
    expect((await createBrand(a.token, { name: 'Acme', branding: { header_color: '#7f7f7f' } })).status).toBe(201);
  });

  it('names every problem when several keys are wrong', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: 'Acme', branding: { logo_url: 'ftp://a.test/x.png', header_color: '#ffffff' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      'branding.logo_url must be an http(s) URL.',
      'branding.header_color #ffffff is too light; choose a colour with luminance at most 50% so white header text stays readable.',
    ]);
  });

  it('refuses an unknown key even when sent as null', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: 'Acme', branding: { colour: null } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^branding\.colour is not a branding key/);
  });

  it('answers a branding that is not an object with a 422 sentence, never a 500', async () => {
    const a = await createAccount();
    const res = await createBrand(a.token, { name: 'Acme', branding: 'blue' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/branding/);
  });
});

describe('GET /api/brands', () => {
  it('lists only the account’s brands, newest first, with cursor pagination', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const first = (await createBrand(a.token, { name: 'One' })).json.brand;
    const second = (await createBrand(a.token, { name: 'Two' })).json.brand;
    await createBrand(b.token, { name: 'Other' });
    const page1 = await api('GET', '/api/brands?limit=1', { token: a.token });
    expect(page1.status).toBe(200);
    expect(page1.json.data.map((x: { id: number }) => x.id)).toEqual([second.id]);
    expect(page1.json.pagination).toMatchObject({ count: 1, next: second.id });
    const page2 = await api('GET', `/api/brands?limit=1&after=${page1.json.pagination.next}`, { token: a.token });
    expect(page2.json.data.map((x: { id: number }) => x.id)).toEqual([first.id]);
  });

  it('is open to a viewer with account:read', async () => {
    const a = await createAccount();
    await createBrand(a.token);
    const viewer = await addUser(a.accountId, 'viewer', ['account:read']);
    const res = await api('GET', '/api/brands', { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
  });

  it('answers 403 to a token without account:read', async () => {
    const a = await createAccount();
    const token = await createToken(a.accountId, a.userId, ['templates:read']);
    const res = await api('GET', '/api/brands', { token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:read');
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/brands')).status).toBe(401);
  });

  it('answers a limit out of range with a sentence', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/brands?limit=0', { token: a.token });
    expect([400, 422]).toContain(res.status);
    expect(res.json.error).toMatch(/limit/);
  });
});

describe('GET /api/brands/{id}', () => {
  it('returns the brand', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const res = await api('GET', `/api/brands/${brand.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.brand).toEqual(brand);
  });

  it('answers 404 for another account’s brand', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const brand = (await createBrand(b.token)).json.brand;
    expect((await api('GET', `/api/brands/${brand.id}`, { token: a.token })).status).toBe(404);
  });

  it('answers 403 to a token without account:read', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const token = await createToken(a.accountId, a.userId, ['templates:read']);
    expect((await api('GET', `/api/brands/${brand.id}`, { token })).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/brands/1')).status).toBe(401);
  });

  it('answers an id that is not a number with a sentence', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/brands/abc', { token: a.token });
    expect([400, 422]).toContain(res.status);
    expect(res.json.error).toMatch(/integer id/);
  });
});

describe('PUT /api/brands/{id}', () => {
  it('renames the brand and merges its branding: keys sent are set, null or "" removes, others stay', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const res = await api('PUT', `/api/brands/${brand.id}`, {
      token: a.token,
      body: { name: ' Acme Blue ', branding: { primary_button_color: '#1e40af', header_color: null, logo_url: '' } },
    });
    expect(res.status).toBe(200);
    expect(res.json.brand).toMatchObject({
      id: brand.id,
      name: 'Acme Blue',
      branding: { company_name: 'Acme', primary_button_color: '#1e40af', show_branding: false },
    });
    expect(res.json.brand.branding).not.toHaveProperty('header_color');
    expect(res.json.brand.branding).not.toHaveProperty('logo_url');
  });

  it('keeps the name when only branding is sent', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const res = await api('PUT', `/api/brands/${brand.id}`, { token: a.token, body: { branding: { company_name: 'Acme Ltd' } } });
    expect(res.json.brand.name).toBe('Acme');
    expect(res.json.brand.branding.company_name).toBe('Acme Ltd');
  });

  it('refuses a name another brand of the account has, ignoring case', async () => {
    const a = await createAccount();
    await createBrand(a.token, { name: 'Acme' });
    const other = (await createBrand(a.token, { name: 'Other' })).json.brand;
    const res = await api('PUT', `/api/brands/${other.id}`, { token: a.token, body: { name: 'acme' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name "acme" is already used by another brand of this account.');
  });

  it('lets a brand change the case of its own name', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token, { name: 'acme' })).json.brand;
    const res = await api('PUT', `/api/brands/${brand.id}`, { token: a.token, body: { name: 'ACME' } });
    expect(res.status).toBe(200);
    expect(res.json.brand.name).toBe('ACME');
  });

  it('refuses invalid branding naming the key and changes nothing', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const res = await api('PUT', `/api/brands/${brand.id}`, {
      token: a.token,
      body: { name: 'New', branding: { header_color: '#eeeeee' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^branding\.header_color #eeeeee is too light/);
    expect((await api('GET', `/api/brands/${brand.id}`, { token: a.token })).json.brand.name).toBe('Acme');
  });

  it('answers 404 for another account’s brand and leaves it alone', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const brand = (await createBrand(b.token)).json.brand;
    expect((await api('PUT', `/api/brands/${brand.id}`, { token: a.token, body: { name: 'Mine' } })).status).toBe(404);
    expect((await api('GET', `/api/brands/${brand.id}`, { token: b.token })).json.brand.name).toBe('Acme');
  });

  it('answers 403 to an editor', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const editor = await addUser(a.accountId, 'editor');
    expect((await api('PUT', `/api/brands/${brand.id}`, { token: editor.token, body: { name: 'X' } })).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api('PUT', '/api/brands/1', { body: { name: 'X' } })).status).toBe(401);
  });

  it('answers 403 to an admin token without account:write', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const token = await createToken(a.accountId, a.userId, ['account:read']);
    const res = await api('PUT', `/api/brands/${brand.id}`, { token, body: { name: 'X' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('refuses a name of only spaces', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const res = await api('PUT', `/api/brands/${brand.id}`, { token: a.token, body: { name: '  ' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name is required.');
  });

  it('lets exactly one of two concurrent renames to the same name ignoring case win', async () => {
    const a = await createAccount();
    const one = (await createBrand(a.token, { name: 'One' })).json.brand;
    const two = (await createBrand(a.token, { name: 'Two' })).json.brand;
    const results = await Promise.all([
      api('PUT', `/api/brands/${one.id}`, { token: a.token, body: { name: 'Same' } }),
      api('PUT', `/api/brands/${two.id}`, { token: a.token, body: { name: 'SAME' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });
});

describe('DELETE /api/brands/{id}', () => {
  it('deletes the brand', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    expect((await api('DELETE', `/api/brands/${brand.id}`, { token: a.token })).status).toBe(204);
    expect((await api('GET', `/api/brands/${brand.id}`, { token: a.token })).status).toBe(404);
  });

  it('frees the name for a new brand', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    await api('DELETE', `/api/brands/${brand.id}`, { token: a.token });
    expect((await createBrand(a.token)).status).toBe(201);
  });

  it('answers 404 for another account’s brand and leaves it alone', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const brand = (await createBrand(b.token)).json.brand;
    expect((await api('DELETE', `/api/brands/${brand.id}`, { token: a.token })).status).toBe(404);
    expect((await api('GET', `/api/brands/${brand.id}`, { token: b.token })).status).toBe(200);
  });

  it('answers 403 to an editor', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const editor = await addUser(a.accountId, 'editor');
    expect((await api('DELETE', `/api/brands/${brand.id}`, { token: editor.token })).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api('DELETE', '/api/brands/1')).status).toBe(401);
  });

  it('answers 403 to an admin token without account:write', async () => {
    const a = await createAccount();
    const brand = (await createBrand(a.token)).json.brand;
    const token = await createToken(a.accountId, a.userId, ['account:read']);
    expect((await api('DELETE', `/api/brands/${brand.id}`, { token })).status).toBe(403);
  });

  it('answers an id that is not a number with a sentence', async () => {
    const a = await createAccount();
    const res = await api('DELETE', '/api/brands/-1', { token: a.token });
    expect([400, 422]).toContain(res.status);
    expect(res.json.error).toMatch(/positive integer id/);
  });
});

it('keeps brands on the account’s own shard', async () => {
  const a = await createAccount();
  const brand = (await createBrand(a.token)).json.brand;
  const row = await (await shardOf(a.accountId)).prepare('SELECT name FROM brands WHERE id = ?').bind(brand.id).first<{ name: string }>();
  expect(row?.name).toBe('Acme');
});
