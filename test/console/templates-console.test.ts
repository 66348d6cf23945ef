// The console's templates list, send page and submissions list (issue 15 › 5): sign-in guard, search,
// folders, archived, role rows of the send form, statuses and signed-document links.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, shardOf } from '../helpers';
import { sessionFor } from '../session-fixtures';
import { completeValues, createTemplate, type TemplateFixture } from '../submission-fixtures';
import { accountWithRoles, apiForms, page, type RoleSessions } from './console-fixtures';

let roles: RoleSessions;
let lease: TemplateFixture;
let quote: TemplateFixture;
let archived: TemplateFixture;

async function rename(id: string, body: Record<string, unknown>) {
  const res = await api('PUT', `/api/templates/${id}`, { token: roles.admin.token, body });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
}

beforeAll(async () => {
  roles = await accountWithRoles();
  lease = await createTemplate(roles.admin.token, ['Tenant', 'Landlord']);
  await rename(lease.id, { name: 'Lease agreement', folder_name: 'Housing' });
  quote = await createTemplate(roles.admin.token);
  await rename(quote.id, { name: 'Quote', folder_name: 'Sales' });
  archived = await createTemplate(roles.admin.token);
  await rename(archived.id, { name: 'Old form', archived: true });
});

describe('/templates', () => {
  it('redirects a visitor without a session to sign in', async () => {
    const res = await page('/templates');
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/login?next=%2Ftemplates');
  });

  it('lists the active templates with links into the builder for an editor', async () => {
    const res = await page('/templates', roles.editor.session.cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain(`<a href="/templates/${lease.id}/edit">Lease agreement</a>`);
    expect(res.html).toContain(`href="/templates/${quote.id}/send"`);
    expect(res.html).not.toContain('Old form');
  });

  it('finds templates by part of the name', async () => {
    const res = await page('/templates?q=lease', roles.admin.session.cookie);
    expect(res.html).toContain('Lease agreement');
    expect(res.html).not.toContain('>Quote<');
  });

  it('lists one folder, and offers every folder in use to choose from', async () => {
    const res = await page('/templates?folder=Sales', roles.admin.session.cookie);
    expect(res.html).toContain('>Quote<');
    expect(res.html).not.toContain('Lease agreement');
    expect(res.html).toContain('<option value="Housing">Housing</option>');
  });

  it('lists archived templates instead when asked', async () => {
    const res = await page('/templates?archived=true', roles.admin.session.cookie);
    expect(res.html).toContain('Old form');
    expect(res.html).not.toContain('Lease agreement');
  });

  it('shows a viewer the names without builder or send links', async () => {
    const res = await page('/templates', roles.viewer.session.cookie);
    expect(res.html).toContain('Lease agreement');
    expect(res.html).not.toContain('/edit"');
    expect(res.html).not.toContain('/send"');
  });

  it('shows another account none of these templates', async () => {
    const other = await createAccount();
    const res = await page('/templates', (await sessionFor(other)).cookie);
    expect(res.html).not.toContain('Lease agreement');
  });
});

describe('/templates/{id}/send', () => {
  it('has one row per role in the template’s order and posts to POST /api/submissions', async () => {
    const res = await page(`/templates/${lease.id}/send`, roles.editor.session.cookie);
    expect(res.status).toBe(200);
    expect(apiForms(res.html)).toEqual(['POST /api/submissions']);
    expect(res.html).toContain(`name="template_id" value="${lease.id}"`);
    expect(res.html.indexOf('1. Tenant')).toBeLessThan(res.html.indexOf('2. Landlord'));
    expect(res.html).toContain('name="submitters[1][email]"');
    expect(res.html).toContain('name="submitters_order"');
    expect(res.html).toContain('name="message.subject"');
  });

  it('answers 404 for another account’s template', async () => {
    const other = await createAccount();
    const res = await page(`/templates/${lease.id}/send`, (await sessionFor(other)).cookie);
    expect(res.status).toBe(404);
  });

  it('offers no form for an archived template', async () => {
    const res = await page(`/templates/${archived.id}/send`, roles.admin.session.cookie);
    expect(res.html).toContain('This template is archived');
    expect(apiForms(res.html)).toEqual([]);
  });

  it('sends what the form’s fields make through the API as the session (a submission per send)', async () => {
    const res = await api('POST', '/api/submissions', {
      token: null,
      headers: roles.editor.session.console,
      body: {
        template_id: quote.id,
        submitters: [{ role: 'First Party', email: 'send.page@example.test' }],
        submitters_order: 'sequential',
        message: { subject: 'Please sign' },
      },
    });
    expect(res.status).toBe(201);
  });
});

describe('/submissions', () => {
  let completedId = 0;
  let pendingId = 0;

  beforeAll(async () => {
    const make = async (email: string) => {
      const res = await api('POST', '/api/submissions', {
        token: roles.admin.token,
        body: { template_id: quote.id, send_email: false, submitters: [{ role: 'First Party', email }] },
      });
      return { id: res.json.submitters[0].id as number, submission_id: res.json.id as number };
    };
    const done = await make('done.signer@example.test');
    const put = await api('PUT', `/api/submitters/${done.id}`, {
      token: roles.admin.token,
      body: { values: completeValues('First Party'), completed: true },
    });
    if (put.status !== 200) throw new Error(put.text);
    completedId = done.submission_id;
    pendingId = (await make('waiting.signer@example.test')).submission_id;
  });

  it('redirects a visitor without a session to sign in', async () => {
    const res = await page('/submissions');
    expect(res.status).toBe(303);
  });

  it('lists each submission with its status and its submitters’ statuses', async () => {
    const res = await page('/submissions', roles.viewer.session.cookie);
    expect(res.status).toBe(200);
    const row = (id: number) => res.html.slice(res.html.indexOf(`data-submission="${id}"`)).split('</tr>')[0];
    expect(row(completedId)).toContain('<td>completed</td>');
    expect(row(completedId)).toContain('done.signer@example.test (completed)');
    expect(row(pendingId)).toContain('<td>pending</td>');
    expect(row(pendingId)).toContain('>Quote<');
  });

  it('filters by status', async () => {
    const res = await page('/submissions?status=pending', roles.admin.session.cookie);
    expect(res.html).toContain(`data-submission="${pendingId}"`);
    expect(res.html).not.toContain(`data-submission="${completedId}"`);
  });

  async function completedRow(sealedAt: string | null, failure: string | null): Promise<string> {
    await (await shardOf(roles.admin.accountId))
      .prepare('UPDATE submissions SET sealed_at = ?, seal_failed_at = ?, seal_failure = ? WHERE id = ?')
      .bind(sealedAt, failure ? new Date().toISOString() : null, failure, completedId)
      .run();
    const res = await page('/submissions', roles.admin.session.cookie);
    return res.html.slice(res.html.indexOf(`data-submission="${completedId}"`)).split('</tr>')[0];
  }

  it('says a completed submission is being sealed until its documents are', async () => {
    const row = await completedRow(null, null);
    expect(row).toContain('Being sealed');
    expect(row).not.toContain('documents/combined');
  });

  it('links a sealed submission’s signed documents as one PDF and as a zip', async () => {
    const row = await completedRow(new Date().toISOString(), null);
    expect(row).toContain(`href="/api/submissions/${completedId}/documents/combined"`);
    expect(row).toContain(`href="/api/submissions/${completedId}/documents/combined?separate=true"`);
  });

  it('shows why sealing failed', async () => {
    const row = await completedRow(null, 'The certificate has expired.');
    expect(row).toContain('Sealing failed: The certificate has expired.');
  });

  it('shows another account none of these submissions', async () => {
    const other = await createAccount();
    const res = await page('/submissions', (await sessionFor(other)).cookie);
    expect(res.html).not.toContain(`data-submission="${completedId}"`);
  });
});
