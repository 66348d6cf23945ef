// GET /s/:slug: the page a link shows, opening the form, the documents route.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, shardOf } from '../helpers';
import { eventsOf, page, signingFixture, submitterRow } from './fixtures';

describe('GET /s/:slug', () => {
  it("shows the form with only this signer's fields and values, and a CSP header", async () => {
    const f = await signingFixture({
      roles: ['Buyer', 'Seller'],
      fields: [
        { name: 'Buyer name', type: 'text', role: 'Buyer' },
        { name: 'Seller secret', type: 'text', role: 'Seller' },
      ],
      order: 'parallel',
      submitters: [
        { email: 'b@example.com', role: 'Buyer' },
        { email: 's@example.com', role: 'Seller', values: {} },
      ],
    });
    await (await shardOf(f.account.accountId))
      .prepare('UPDATE submitters SET "values" = ? WHERE id = ?')
      .bind(JSON.stringify({ [f.field('Seller secret')]: 'top secret' }), f.submitters[1].id)
      .run();
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'");
    expect(res.text).toContain('Buyer name');
    expect(res.text).not.toContain('Seller secret');
    expect(res.text).not.toContain('top secret');
  });

  it('records nothing when the page is only fetched, as email link scanners do', async () => {
    const f = await signingFixture({ fields: [{ name: 'Today', type: 'datenow' }] });
    const before = new Date().toISOString().slice(0, 10);
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    const after = new Date().toISOString().slice(0, 10);
    expect(res.status).toBe(200);
    const row = await submitterRow(f.submitters[0].id);
    expect(row.status).toBe('sent');
    expect(JSON.parse(row.values)).toEqual({});
    expect(await eventsOf(f.account.accountId, 'form.viewed')).toEqual([]);
    // The page still shows today's date (the account's zone is UTC) in the date-now field.
    expect([before, after].some((day) => res.text.includes(`"${f.field('Today')}":"${day}"`))).toBe(true);
  });

  it('moves the submitter to opened and fires form.viewed and submitter.opened once when the page opens the form', async () => {
    const f = await signingFixture();
    await api('GET', `/s/${f.submitters[0].slug}`);
    const first = await page('POST', `/s/${f.submitters[0].slug}/open`, { body: {} });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: 'opened' });
    expect((await page('POST', `/s/${f.submitters[0].slug}/open`, { body: {} })).status).toBe(200);
    expect((await submitterRow(f.submitters[0].id)).status).toBe('opened');
    expect((await eventsOf(f.account.accountId, 'form.viewed')).length).toBe(1);
    const [opened] = await eventsOf(f.account.accountId, 'submitter.opened');
    expect(opened.data.submitter).toMatchObject({ email: f.submitters[0].email, status: 'opened' });
  });

  it('answers 404 to opening an unknown link and 403 to a request from another origin, opening nothing', async () => {
    const f = await signingFixture();
    expect((await page('POST', '/s/NoSuchSigningLink1/open', { body: {} })).status).toBe(404);
    const foreign = await api('POST', `/s/${f.submitters[0].slug}/open`, { body: {}, headers: { Origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await submitterRow(f.submitters[0].id)).status).toBe('sent');
    expect(await eventsOf(f.account.accountId, 'form.viewed')).toEqual([]);
  });

  it('fills date-now fields with the date of opening', async () => {
    const f = await signingFixture({ fields: [{ name: 'Today', type: 'datenow' }] });
    await page('POST', `/s/${f.submitters[0].slug}/open`, { body: {} });
    const values = JSON.parse((await submitterRow(f.submitters[0].id)).values);
    expect(values[f.field('Today')]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ['Pacific/Kiritimati', 14],
    ['Pacific/Pago_Pago', -11],
  ])('fills date-now fields with the day it is in the account’s time zone (%s)', async (timeZone, offsetHours) => {
    const f = await signingFixture({ fields: [{ name: 'Today', type: 'datenow' }] });
    await env.CONTROL_DB.prepare('UPDATE accounts SET timezone = ? WHERE id = ?').bind(timeZone, f.account.accountId).run();
    // Neither zone keeps daylight saving time: the day there is UTC shifted by a fixed offset.
    const before = new Date(Date.now() + offsetHours * 3_600_000).toISOString().slice(0, 10);
    await page('POST', `/s/${f.submitters[0].slug}/open`, { body: {} });
    const after = new Date(Date.now() + offsetHours * 3_600_000).toISOString().slice(0, 10);
    const values = JSON.parse((await submitterRow(f.submitters[0].id)).values);
    expect([before, after]).toContain(values[f.field('Today')]);
  });

  it('shows the waiting page to a later signer in sequential order without marking them opened', async () => {
    const f = await signingFixture({
      roles: ['First', 'Second'],
      fields: [
        { name: 'A', type: 'text', role: 'First' },
        { name: 'B', type: 'text', role: 'Second' },
      ],
    });
    const res = await api('GET', `/s/${f.submitters[1].slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('id="waiting"');
    const open = await page('POST', `/s/${f.submitters[1].slug}/open`, { body: {} });
    expect(open.status).toBe(422);
    expect(open.json.error).toBe('It is not your turn yet: others sign before you.');
    expect((await submitterRow(f.submitters[1].id)).status).toBe('waiting');
    expect(await eventsOf(f.account.accountId, 'form.viewed')).toEqual([]);
  });

  it('shows the expired page once the submission expired', async () => {
    const f = await signingFixture();
    await (await shardOf(f.account.accountId)).prepare("UPDATE submissions SET status = 'expired' WHERE id = ?").bind(f.submissionId).run();
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.text).toContain('id="expired"');
  });

  it('shows the completed page with the continue link of completed_redirect_url', async () => {
    const f = await signingFixture({ submissionPreferences: { completed_redirect_url: 'https://example.com/thanks' } });
    await (await shardOf(f.account.accountId))
      .prepare("UPDATE submitters SET status = 'completed' WHERE id = ?")
      .bind(f.submitters[0].id)
      .run();
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.text).toContain('id="completed"');
    expect(res.text).toContain('href="https://example.com/thanks"');
  });

  it('answers an unknown slug with a 404 page', async () => {
    const res = await api('GET', '/s/NoSuchSlug0000000000');
    expect(res.status).toBe(404);
    expect(res.text).toContain('This link does not work');
  });

  it('applies the template branding to the title and header', async () => {
    const f = await signingFixture({ preferences: { display_title: 'Lease', company_name: 'Acme', header_color: '#112233' } });
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.text).toContain('<title>Lease - Acme</title>');
    expect(res.text).toContain('--header:#112233');
  });
});

describe('GET /s/:slug/documents/:document_uuid', () => {
  it('streams the original PDF of the submission', async () => {
    const f = await signingFixture();
    const res = await api('GET', `/s/${f.submitters[0].slug}/documents/${f.documents[0].uuid}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.text.startsWith('%PDF-')).toBe(true);
  });

  it('refuses a signer whose turn has not come', async () => {
    const f = await signingFixture({
      roles: ['First', 'Second'],
      fields: [
        { name: 'A', type: 'text', role: 'First' },
        { name: 'B', type: 'text', role: 'Second' },
      ],
    });
    const res = await api('GET', `/s/${f.submitters[1].slug}/documents/${f.documents[0].uuid}`);
    expect(res.status).toBe(404);
  });

  it('refuses a document of another template', async () => {
    const f = await signingFixture();
    const other = await signingFixture();
    const res = await api('GET', `/s/${f.submitters[0].slug}/documents/${other.documents[0].uuid}`);
    expect(res.status).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('describes the signer routes at the service root without a token', async () => {
    const doc = (await api('GET', '/api/openapi.json')).json;
    for (const path of ['/s/{slug}/delegate', '/s/{slug}/invite_witness', '/s/{slug}/values', '/s/{slug}/submit', '/s/{slug}/decline']) {
      const op = Object.values(doc.paths[path] as Record<string, { security: unknown[]; servers: { url: string }[] }>)[0];
      expect(op.security, path).toEqual([]);
      expect(op.servers[0].url, path).toBe('/');
    }
  });
});

describe('the form page data', () => {
  it('carries the navigation style, document conditions and carousel documents the browser script needs', async () => {
    const f = await signingFixture({ preferences: { signing_nav_style: 'branded_bar' } });
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    const data = JSON.parse(/<script type="application\/json" id="signing-data">(.*?)<\/script>/s.exec(res.text)![1]);
    expect(data).toMatchObject({
      page: 'form',
      slug: f.submitters[0].slug,
      preferences: { signing_nav_style: 'branded_bar', document_conditions: {}, carousel_review_documents: [] },
    });
    expect(data.documents[0]).toMatchObject({
      uuid: f.documents[0].uuid,
      page_count: 2,
      url: `/s/${f.submitters[0].slug}/documents/${f.documents[0].uuid}`,
    });
    expect(res.text).toContain('class="nav-branded_bar"');
  });
});
