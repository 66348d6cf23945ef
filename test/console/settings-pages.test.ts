// Every settings console page: the sign-in redirect, the page frame (title, one h1, CSP) for a session.
import { beforeAll, describe, expect, it } from 'vitest';
import { accountWithRoles, page, type RoleSessions } from './console-fixtures';

const PAGES = [
  { path: '/settings/account', title: 'Account settings' },
  { path: '/settings/users', title: 'Users' },
  { path: '/settings/tokens', title: 'API tokens' },
  { path: '/settings/webhooks', title: 'Webhooks' },
  { path: '/settings/brands', title: 'Brands' },
  { path: '/settings/domains', title: 'Custom domains' },
];

let roles: RoleSessions;

beforeAll(async () => {
  roles = await accountWithRoles();
});

describe('/settings', () => {
  it('sends a visitor on to the account page with 303', async () => {
    const res = await page('/settings', roles.admin.session.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/settings/account');
  });
});

describe.each(PAGES)('$path', ({ path, title }) => {
  it('redirects a visitor without a session to sign in and come back', async () => {
    const res = await page(path);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/login?next=${encodeURIComponent(path)}`);
  });

  it('renders for a signed-in viewer with its own title and one h1', async () => {
    const res = await page(path, roles.viewer.session.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.html).toContain(`<title>${title}</title>`);
    expect(res.html.match(/<h1[ >]/g)).toHaveLength(1);
  });

  it('answers with the console CSP, which allows no inline script', async () => {
    const res = await page(path, roles.admin.session.cookie);
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'");
    expect(res.html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('marks its section as the current page in the navigation', async () => {
    const res = await page(path, roles.editor.session.cookie);
    expect(res.html).toMatch(new RegExp(`href="${path}" aria-current="page"`));
  });

  it('sends its style sheet unescaped, so that its quoted font names apply', async () => {
    const res = await page(path, roles.viewer.session.cookie);
    expect(res.html).toContain('"Segoe UI"');
  });

  it('gives every table header cell a scope', async () => {
    const res = await page(path, roles.admin.session.cookie);
    expect(res.html).not.toMatch(/<th(?![^>]*\bscope=)[ >]/);
  });
});
