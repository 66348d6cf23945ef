// /settings/brands and /settings/brands/{id}: brands read server-side, changed through the brand API
// (admins only), with a live preview of the signing page header.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, shardOf } from '../helpers';
import { darken, DEFAULT_PRIMARY_COLOR } from '../../src/shared/colors';
import { headerPreview } from '../../src/shared/header-preview';
import { accountWithRoles, apiForms, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;
let brand: { id: number; name: string };

beforeAll(async () => {
  roles = await accountWithRoles({ name: 'Roles Inc' });
  const created = await api('POST', '/api/brands', {
    token: roles.admin.token,
    body: {
      name: 'Acme',
      branding: { company_name: 'Acme Co', display_title: 'Acme papers', primary_button_color: '#0f766e', show_branding: false },
    },
  });
  expect(created.status).toBe(201);
  brand = created.json.brand;
});

describe('/settings/brands', () => {
  it('lists the brands with a link to each one’s page', async () => {
    const res = await page('/settings/brands', roles.viewer.session.cookie);
    expect(res.html).toContain(`<a href="/settings/brands/${brand.id}">Acme</a>`);
  });

  it('gives an admin the create form with every branding key and a preview', async () => {
    const res = await page('/settings/brands', roles.admin.session.cookie);
    expect(apiForms(res.html)).toEqual(['POST /api/brands']);
    for (const key of [
      'display_title',
      'company_name',
      'logo_url',
      'favicon_url',
      'primary_button_color',
      'header_color',
      'show_branding',
    ]) {
      expect(res.html).toContain(`name="branding.${key}"`);
    }
    expect(res.html).toContain('type="color"');
    expect(res.html).toContain('data-branding-preview');
  });

  it('gives an editor and a viewer no form', async () => {
    for (const who of [roles.editor, roles.viewer]) {
      const res = await page('/settings/brands', who.session.cookie);
      expect(apiForms(res.html)).toEqual([]);
      expect(res.html).toContain('Only account admins create and change brands.');
    }
  });

  it('lets logos from https origins load, for the preview', async () => {
    const res = await page('/settings/brands', roles.admin.session.cookie);
    expect(res.headers.get('Content-Security-Policy')).toContain("img-src 'self' data: https:");
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'");
  });

  it('escapes a brand name that holds markup', async () => {
    const a = await accountWithRoles();
    const created = await api('POST', '/api/brands', { token: a.admin.token, body: { name: '<img src=x onerror=alert(1)>' } });
    expect(created.status).toBe(201);
    for (const path of ['/settings/brands', `/settings/brands/${created.json.brand.id}`]) {
      const res = await page(path, a.admin.session.cookie);
      expect(res.html).not.toContain('<img src=x');
      expect(res.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });
});

describe('/settings/brands/{id}', () => {
  it('gives an admin the edit and delete forms with the stored values', async () => {
    const res = await page(`/settings/brands/${brand.id}`, roles.admin.session.cookie);
    expect(apiForms(res.html)).toEqual([`PUT /api/brands/${brand.id}`, `DELETE /api/brands/${brand.id}`]);
    expect(res.html).toContain('value="Acme Co"');
    expect(res.html).toContain('value="#0f766e"');
  });

  it('shows a viewer the keys and the preview without a form', async () => {
    const res = await page(`/settings/brands/${brand.id}`, roles.viewer.session.cookie);
    expect(res.status).toBe(200);
    expect(apiForms(res.html)).toEqual([]);
    expect(res.html).toContain('<code>company_name</code>');
    expect(res.html).toContain('data-branding-preview');
  });

  it('draws the preview header in the primary colour darkened 20% when no header colour is set', async () => {
    const res = await page(`/settings/brands/${brand.id}`, roles.viewer.session.cookie);
    expect(res.html).toContain(`background:${darken('#0f766e', 0.2)}`);
    expect(res.html).toContain('<strong data-preview-company="true">Acme Co</strong>');
    expect(res.html).toContain('<span data-preview-title="true">Acme papers</span>');
  });

  it('hides the powered-by line in the preview when show_branding is false', async () => {
    const res = await page(`/settings/brands/${brand.id}`, roles.viewer.session.cookie);
    expect(res.html).toMatch(/<p data-preview-powered="true" class="muted" hidden="">/);
  });

  it('answers 404 for another account’s brand', async () => {
    const other = await createAccount();
    const theirs = await api('POST', '/api/brands', { token: other.token, body: { name: 'Theirs' } });
    const res = await page(`/settings/brands/${theirs.json.brand.id}`, roles.admin.session.cookie);
    expect(res.status).toBe(404);
    expect(res.html).not.toContain('Theirs');
  });

  it('answers 404 for an id that is not one', async () => {
    expect((await page('/settings/brands/abc', roles.admin.session.cookie)).status).toBe(404);
  });

  it('redirects a visitor without a session to sign in', async () => {
    const res = await page(`/settings/brands/${brand.id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/login?next=${encodeURIComponent(`/settings/brands/${brand.id}`)}`);
  });

  it('saves what the edit form sends: a nested branding object, empty fields removed', async () => {
    // The body the console script builds from the form (field `branding.company_name` → branding.company_name).
    const body = {
      name: 'Acme',
      branding: {
        company_name: 'Acme Two',
        display_title: null,
        logo_url: null,
        favicon_url: null,
        primary_button_color: '#0f766e',
        header_color: null,
        show_branding: true,
      },
    };
    const res = await api('PUT', `/api/brands/${brand.id}`, { token: null, headers: roles.admin.session.console, body });
    expect(res.status).toBe(200);
    expect(res.json.brand.branding).toEqual({ company_name: 'Acme Two', primary_button_color: '#0f766e', show_branding: true });
    const row = await (await shardOf(roles.admin.accountId))
      .prepare('SELECT branding FROM brands WHERE id = ?')
      .bind(brand.id)
      .first<{ branding: string }>();
    expect(JSON.parse(row!.branding).company_name).toBe('Acme Two');
  });

  it('is refused to an editor by the API even if a stale page sent the form', async () => {
    const res = await api('PUT', `/api/brands/${brand.id}`, {
      token: null,
      headers: roles.editor.session.console,
      body: { name: 'Editor' },
    });
    expect(res.status).toBe(403);
  });
});

describe('the live preview’s rules', () => {
  const empty = { displayTitle: '', companyName: '', logoUrl: '', primary: '', header: '', showBranding: true };
  const fallbacks = { company: 'Account', title: 'Your document' };

  it('darkens the primary colour by 20% for the header, as the signing page does', () => {
    expect(headerPreview({ ...empty, primary: '#3366ff' }, fallbacks).header).toBe(darken('#3366ff', 0.2));
  });

  it('uses a header colour as given', () => {
    expect(headerPreview({ ...empty, primary: '#3366ff', header: '#112233' }, fallbacks).header).toBe('#112233');
  });

  it('falls back to the default blue for an unfinished colour', () => {
    expect(headerPreview({ ...empty, primary: '#33' }, fallbacks)).toMatchObject({
      primary: DEFAULT_PRIMARY_COLOR,
      header: darken(DEFAULT_PRIMARY_COLOR, 0.2),
    });
  });

  it('shows the company name until the logo is an http(s) URL', () => {
    expect(headerPreview({ ...empty, logoUrl: 'javascript:alert(1)' }, fallbacks)).toMatchObject({
      logo: null,
      company: 'Account',
      title: 'Your document',
    });
    expect(headerPreview({ ...empty, logoUrl: 'https://acme.test/logo.png' }, fallbacks).logo).toBe('https://acme.test/logo.png');
  });
});
