// Custom signing domains: create, list, read, edit, delete, and their validation (docs/custom-domains.md).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';

let counter = 0;
/** A host name of this test alone (host names are unique across all accounts). */
function hostname(): string {
  counter += 1;
  return `sign-${counter}-${crypto.randomUUID().slice(0, 8)}.example.com`;
}

function addDomain(token: string, body: Record<string, unknown>) {
  return api('POST', '/api/custom_domains', { token, body });
}

describe('POST /api/custom_domains', () => {
  it('adds a pending domain with the TXT record that proves ownership', async () => {
    const a = await createAccount();
    const host = hostname();
    const res = await addDomain(a.token, {
      hostname: ` ${host.toUpperCase()}. `,
      website_url: 'https://example.com',
      branding: { company_name: 'Acme' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      hostname: host,
      website_url: 'https://example.com',
      branding: { company_name: 'Acme' },
      is_default: false,
      status: 'pending',
      certificate_status: null,
      verified_at: null,
      verification: { type: 'TXT', name: `_signing-service-verify.${host}`, legacy_name: `_sign-verify.${host}` },
    });
    expect(res.json.verification.value).toMatch(/^[0-9A-Za-z]{32}$/);
  });

  it('stores the domain in the control database', async () => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: hostname() });
    const row = await env.CONTROL_DB.prepare('SELECT account_id FROM custom_domains WHERE id = ?')
      .bind(res.json.id)
      .first<{ account_id: number }>();
    expect(row?.account_id).toBe(a.accountId);
  });

  it('answers 401 without a token', async () => {
    const res = await api('POST', '/api/custom_domains', { token: null, body: { hostname: hostname() } });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a token without account:write', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    const res = await addDomain(a.token, { hostname: hostname() });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
  });

  it('answers 403 to an editor, since domains are for admins', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    const res = await addDomain(editor.token, { hostname: hostname() });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Only account admins can perform this operation.');
  });

  it.each([
    ['an IPv4 address', '203.0.113.9', 'hostname 203.0.113.9 is an IP address; use a DNS name such as sign.example.com.'],
    ['an IPv6 address', '2001:db8::1', 'hostname 2001:db8::1 is an IP address; use a DNS name such as sign.example.com.'],
    ['localhost', 'localhost', 'hostname localhost is not a valid DNS name; use letters, digits and hyphens, such as sign.example.com.'],
    ['a .internal name', 'sign.corp.internal', 'hostname sign.corp.internal is a reserved name (.internal) that signers cannot reach.'],
    [
      'a name with an underscore',
      'sign_here.example.com',
      'hostname sign_here.example.com is not a valid DNS name; use letters, digits and hyphens, such as sign.example.com.',
    ],
    [
      'a workers.dev host',
      'signing.acme.workers.dev',
      'hostname signing.acme.workers.dev is a Cloudflare platform host (.workers.dev); use a domain of your own.',
    ],
    ['the service’s own host', 'api.test', 'hostname api.test belongs to the service itself (api.test); use a domain of your own.'],
    ['a blank name', '  ', "hostname can't be blank."],
  ])('refuses %s with 422 and a sentence', async (_what, host, sentence) => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: host });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(sentence);
  });

  it('refuses a name longer than 253 characters', async () => {
    const a = await createAccount();
    const long = `${Array(4).fill('a'.repeat(62)).join('.')}.example`; // 259 characters
    const res = await addDomain(a.token, { hostname: long });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('hostname must be at most 253 characters.');
  });

  it('refuses a host name another account proved with 409', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const host = hostname();
    const added = await addDomain(a.token, { hostname: host });
    expect(added.status).toBe(201);
    // As verify leaves it once the TXT record was seen (test/api/custom-domain-claims.test.ts does it for real).
    await env.CONTROL_DB.prepare("UPDATE custom_domains SET status = 'verified' WHERE id = ?").bind(added.json.id).run();
    const res = await addDomain(b.token, { hostname: host.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.json.error).toBe(`hostname ${host} is already registered as a custom domain.`);
  });

  it('refuses branding with an unknown key, naming it', async () => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: hostname(), branding: { colour: '#000000' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('branding.colour is not a branding key');
  });

  it('refuses a header colour that is too light', async () => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: hostname(), branding: { header_color: '#ffffff' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('branding.header_color #ffffff is too light');
  });

  it('refuses a logo URL that is not http(s)', async () => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: hostname(), branding: { logo_url: 'javascript:alert(1)' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('branding.logo_url must be an http(s) URL.');
  });

  it('refuses a website_url that is not http(s)', async () => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: hostname(), website_url: 'ftp://example.com' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('website_url must be an http or https URL.');
  });

  it('drops branding keys sent as null or an empty string', async () => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: hostname(), branding: { company_name: '', logo_url: null, show_branding: false } });
    expect(res.status).toBe(201);
    expect(res.json.branding).toEqual({ show_branding: false });
  });

  it('answers 400 to a hostname that is not a string', async () => {
    const a = await createAccount();
    const res = await addDomain(a.token, { hostname: 42 });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('hostname');
  });
});

describe('default domain', () => {
  it('makes a new default domain the only default of the account', async () => {
    const a = await createAccount();
    const first = await addDomain(a.token, { hostname: hostname(), is_default: true });
    const second = await addDomain(a.token, { hostname: hostname(), is_default: true });
    expect(second.json.is_default).toBe(true);
    expect((await api('GET', `/api/custom_domains/${first.json.id}`, { token: a.token })).json.is_default).toBe(false);
  });

  it('moves the default with PUT is_default: true', async () => {
    const a = await createAccount();
    const first = await addDomain(a.token, { hostname: hostname(), is_default: true });
    const second = await addDomain(a.token, { hostname: hostname() });
    const res = await api('PUT', `/api/custom_domains/${second.json.id}`, { token: a.token, body: { is_default: true } });
    expect(res.status).toBe(200);
    expect(res.json.is_default).toBe(true);
    expect((await api('GET', `/api/custom_domains/${first.json.id}`, { token: a.token })).json.is_default).toBe(false);
  });

  it('keeps one default when two domains are made default at the same time', async () => {
    const a = await createAccount();
    const ids = [
      (await addDomain(a.token, { hostname: hostname() })).json.id,
      (await addDomain(a.token, { hostname: hostname() })).json.id,
    ];
    const results = await Promise.all(
      ids.map((id) => api('PUT', `/api/custom_domains/${id}`, { token: a.token, body: { is_default: true } })),
    );
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const row = await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM custom_domains WHERE account_id = ? AND is_default = 1')
      .bind(a.accountId)
      .first<{ n: number }>();
    expect(row?.n).toBe(1);
  });

  it('leaves another account’s default alone', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const theirs = await addDomain(b.token, { hostname: hostname(), is_default: true });
    await addDomain(a.token, { hostname: hostname(), is_default: true });
    expect((await api('GET', `/api/custom_domains/${theirs.json.id}`, { token: b.token })).json.is_default).toBe(true);
  });
});

describe('GET /api/custom_domains', () => {
  it('lists the account’s domains newest first, with cursor pagination', async () => {
    const a = await createAccount();
    const first = await addDomain(a.token, { hostname: hostname() });
    const second = await addDomain(a.token, { hostname: hostname() });
    await addDomain((await createAccount()).token, { hostname: hostname() });
    const res = await api('GET', '/api/custom_domains?limit=1', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data.map((d: { id: number }) => d.id)).toEqual([second.json.id]);
    const next = await api('GET', `/api/custom_domains?limit=1&after=${res.json.pagination.next}`, { token: a.token });
    expect(next.json.data.map((d: { id: number }) => d.id)).toEqual([first.json.id]);
  });

  it('answers 403 to a token without account:read', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('GET', '/api/custom_domains', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:read');
  });
});

describe('GET, PUT and DELETE /api/custom_domains/{id}', () => {
  it('answers 404 for another account’s domain', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const theirs = await addDomain(b.token, { hostname: hostname() });
    expect((await api('GET', `/api/custom_domains/${theirs.json.id}`, { token: a.token })).status).toBe(404);
    expect((await api('PUT', `/api/custom_domains/${theirs.json.id}`, { token: a.token, body: { website_url: null } })).status).toBe(404);
    expect((await api('DELETE', `/api/custom_domains/${theirs.json.id}`, { token: a.token })).status).toBe(404);
    expect((await api('GET', `/api/custom_domains/${theirs.json.id}`, { token: b.token })).status).toBe(200);
  });

  it('merges branding: keys given replace, null removes one', async () => {
    const a = await createAccount();
    const d = await addDomain(a.token, {
      hostname: hostname(),
      branding: { company_name: 'Acme', logo_url: 'https://example.com/logo.png' },
    });
    const res = await api('PUT', `/api/custom_domains/${d.json.id}`, {
      token: a.token,
      body: { branding: { company_name: 'Acme Ltd', logo_url: null }, website_url: 'https://acme.example' },
    });
    expect(res.status).toBe(200);
    expect(res.json.branding).toEqual({ company_name: 'Acme Ltd' });
    expect(res.json.website_url).toBe('https://acme.example');
  });

  it('refuses to change the host name with 422', async () => {
    const a = await createAccount();
    const d = await addDomain(a.token, { hostname: hostname() });
    const res = await api('PUT', `/api/custom_domains/${d.json.id}`, { token: a.token, body: { hostname: hostname() } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('hostname cannot be changed; add the new host name as another custom domain.');
  });

  it('deletes the domain, after which it is not found', async () => {
    const a = await createAccount();
    const d = await addDomain(a.token, { hostname: hostname() });
    expect((await api('DELETE', `/api/custom_domains/${d.json.id}`, { token: a.token })).status).toBe(204);
    expect((await api('GET', `/api/custom_domains/${d.json.id}`, { token: a.token })).status).toBe(404);
  });

  it('frees the host name for another account once deleted', async () => {
    const a = await createAccount();
    const host = hostname();
    const d = await addDomain(a.token, { hostname: host });
    await api('DELETE', `/api/custom_domains/${d.json.id}`, { token: a.token });
    expect((await addDomain((await createAccount()).token, { hostname: host })).status).toBe(201);
  });

  it('answers 422 with a sentence for an id that is not a number', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/custom_domains/abc', { token: a.token });
    expect([400, 422]).toContain(res.status);
    expect(res.json.error).toContain('id');
  });
});

describe('the OpenAPI document', () => {
  it('lists every custom domain route with its scope and admin note', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    expect(Object.keys(doc.paths['/custom_domains']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/custom_domains/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.paths['/custom_domains/{id}/verify'].post.description).toContain('Scopes: `account:write` · account admins only.');
  });
});
