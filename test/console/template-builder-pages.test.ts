// The template builder's console pages (issue 15 › 4): /templates/new and /templates/{id}/edit behind the
// console session, another account's template as 404, the builder's script and its CSP for pdf.js.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../helpers';
import { sessionFor } from '../session-fixtures';
import { createTemplate, type TemplateFixture } from '../submission-fixtures';
import { accountWithRoles, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;
let template: TemplateFixture;

beforeAll(async () => {
  roles = await accountWithRoles();
  template = await createTemplate(roles.admin.token);
});

describe('/templates/{id}/edit', () => {
  it('redirects a visitor without a session to sign in and come back', async () => {
    const path = `/templates/${template.id}/edit`;
    const res = await page(path);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/login?next=${encodeURIComponent(path)}`);
  });

  it('renders the builder frame with the template id and the builder script for an editor', async () => {
    const res = await page(`/templates/${template.id}/edit`, roles.editor.session.cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain(`data-template-id="${template.id}"`);
    expect(res.html).toContain('<script type="module" src="/vendor/builder/builder.js"></script>');
    expect(res.html.match(/<h1[ >]/g)).toHaveLength(1);
  });

  it('lets pdf.js run its worker and fonts under the page CSP, still without inline script', async () => {
    const res = await page(`/templates/${template.id}/edit`, roles.admin.session.cookie);
    const csp = res.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('answers 404 for another account’s template', async () => {
    const other = await createAccount();
    const session = await sessionFor(other);
    const res = await page(`/templates/${template.id}/edit`, session.cookie);
    expect(res.status).toBe(404);
    expect(res.html).toContain('Template not found');
    expect(res.html).not.toContain('data-template-id');
  });

  it('answers 404 for an id that is no template', async () => {
    const res = await page('/templates/tpl_doesnotexist/edit', roles.admin.session.cookie);
    expect(res.status).toBe(404);
  });

  it('tells a viewer that editors build templates instead of opening the builder', async () => {
    const res = await page(`/templates/${template.id}/edit`, roles.viewer.session.cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain('editors and admins build them');
    expect(res.html).not.toContain('data-template-id');
  });

  it('marks Templates as the current section in the navigation', async () => {
    const res = await page(`/templates/${template.id}/edit`, roles.admin.session.cookie);
    expect(res.html).toContain('<a href="/templates" aria-current="page">Templates</a>');
  });
});

describe('/templates/new', () => {
  it('redirects a visitor without a session to sign in', async () => {
    const res = await page('/templates/new');
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/login?next=${encodeURIComponent('/templates/new')}`);
  });

  it('shows an editor the PDF upload form that posts to POST /api/templates/pdf', async () => {
    const res = await page('/templates/new', roles.editor.session.cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain('data-upload="/templates/pdf"');
    expect(res.html).toMatch(/<input[^>]*id="upload-file"[^>]*type="file"/);
  });

  it('shows a viewer no upload form', async () => {
    const res = await page('/templates/new', roles.viewer.session.cookie);
    expect(res.html).not.toContain('data-upload');
  });
});
