// /settings/domains and /settings/domains/{id}: custom signing domains read server-side, changed through
// the custom-domain API (admins only): add, the TXT record to publish, verify, make default, delete, branding.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { accountWithRoles, apiForms, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;
let domain: { id: number; hostname: string; verification: { name: string; legacy_name: string; value: string } };

beforeAll(async () => {
  roles = await accountWithRoles();
  const created = await api('POST', '/api/custom_domains', {
    token: roles.admin.token,
    body: {
      hostname: `console-${crypto.randomUUID().slice(0, 8)}.example.com`,
      branding: { company_name: 'Domain Co', header_color: '#102030' },
    },
  });
  expect(created.status).toBe(201);
  domain = created.json;
});

describe('/settings/domains', () => {
  it('lists the domains with their status, certificate status and a link to each one’s page', async () => {
    const res = await page('/settings/domains', roles.admin.session.cookie);
    expect(res.html).toContain(`<a href="/settings/domains/${domain.id}">${domain.hostname}</a>`);
    expect(res.html).toContain('<td>Pending: publish the TXT record, then verify</td>');
  });

  it('gives an admin the form that adds a domain', async () => {
    const res = await page('/settings/domains', roles.admin.session.cookie);
    expect(apiForms(res.html)).toEqual(['POST /api/custom_domains']);
    expect(res.html).toContain('name="hostname"');
    expect(res.html).toContain('name="website_url"');
    expect(res.html).toContain('name="is_default"');
  });

  it('gives a viewer the list without a form', async () => {
    const res = await page('/settings/domains', roles.viewer.session.cookie);
    expect(res.html).toContain(domain.hostname);
    expect(apiForms(res.html)).toEqual([]);
  });
});

describe('/settings/domains/{id}', () => {
  it('shows an admin the TXT record to publish, with the legacy name', async () => {
    const res = await page(`/settings/domains/${domain.id}`, roles.admin.session.cookie);
    expect(res.html).toContain(`<code>${domain.verification.name}</code>`);
    expect(res.html).toContain(`<code>${domain.verification.legacy_name}</code>`);
    expect(res.html).toContain(domain.verification.value);
  });

  it('gives an admin verify, make default, branding and delete forms', async () => {
    const res = await page(`/settings/domains/${domain.id}`, roles.admin.session.cookie);
    expect(apiForms(res.html)).toEqual([
      `PUT /api/custom_domains/${domain.id}`,
      `POST /api/custom_domains/${domain.id}/verify`,
      `PUT /api/custom_domains/${domain.id}`,
      `DELETE /api/custom_domains/${domain.id}`,
    ]);
    expect(res.html).toContain('name="branding.header_color"');
    expect(res.html).toContain('value="#102030"');
    expect(res.html).toContain('data-branding-preview');
  });

  it('shows a viewer the status and branding without a form or the verification value', async () => {
    const res = await page(`/settings/domains/${domain.id}`, roles.viewer.session.cookie);
    expect(res.status).toBe(200);
    expect(apiForms(res.html)).toEqual([]);
    expect(res.html).toContain('<code>company_name</code>');
    expect(res.html).not.toContain(domain.verification.value);
  });

  it('draws the preview with the domain’s header colour', async () => {
    const res = await page(`/settings/domains/${domain.id}`, roles.viewer.session.cookie);
    expect(res.html).toContain('background:#102030');
  });

  it('answers 404 for another account’s domain', async () => {
    const other = await createAccount();
    const theirs = await api('POST', '/api/custom_domains', {
      token: other.token,
      body: { hostname: `theirs-${crypto.randomUUID().slice(0, 8)}.example.com` },
    });
    expect(theirs.status).toBe(201);
    const res = await page(`/settings/domains/${theirs.json.id}`, roles.admin.session.cookie);
    expect(res.status).toBe(404);
    expect(res.html).not.toContain(theirs.json.hostname);
  });

  it('redirects a visitor without a session to sign in', async () => {
    const res = await page(`/settings/domains/${domain.id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/login?next=${encodeURIComponent(`/settings/domains/${domain.id}`)}`);
  });

  it('escapes branding values that hold markup', async () => {
    const res = await api('PUT', `/api/custom_domains/${domain.id}`, {
      token: null,
      headers: roles.admin.session.console,
      body: { branding: { display_title: '<script>alert(1)</script>' } },
    });
    expect(res.status).toBe(200);
    for (const who of [roles.admin, roles.viewer]) {
      const html = (await page(`/settings/domains/${domain.id}`, who.session.cookie)).html;
      expect(html).not.toContain('<script>alert(1)');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it('marks the domain default through the make-default form’s body', async () => {
    const res = await api('PUT', `/api/custom_domains/${domain.id}`, {
      token: null,
      headers: roles.admin.session.console,
      body: { is_default: true },
    });
    expect(res.status).toBe(200);
    const html = (await page(`/settings/domains/${domain.id}`, roles.admin.session.cookie)).html;
    expect(html).toContain('<dd>Yes: links of templates that name no domain use it</dd>');
    expect(apiForms(html)).not.toContain(`POST /api/custom_domains/${domain.id}/make-default`);
    expect(apiForms(html).filter((f) => f === `PUT /api/custom_domains/${domain.id}`)).toHaveLength(1);
  });
});
