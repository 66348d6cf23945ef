// The signing page in an embedding site's iframe (decisions.md › Embedding (issue 15)): frame-ancestors
// from the account's embed_origins, the page's embedding data for its browser messages, the host's
// options from the query, the cookie a framed page can use, and the embed script's paths.
import { brandPalette, NEUTRAL } from '../../src/lib/design-tokens';
import { contrastRatio } from '../../src/shared/colors';
import { describe, expect, it } from 'vitest';
import { api, shardOf } from '../helpers';
import { acceptDisclosure, messagesTo, page, signingFixture, type Fixture } from './fixtures';

async function allowFraming(f: Fixture, origins: string[]) {
  const res = await api('PUT', '/api/settings/account', { token: f.account.token, body: { embed_origins: origins } });
  if (res.status !== 200) throw new Error(res.text);
}

function embedData(html: string): Record<string, unknown> | null {
  const match = /<script type="application\/json" id="embed-data">([^<]*)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]) : null;
}

function signingData(html: string): { fields: { uuid: string; locked?: boolean }[]; values: Record<string, unknown> } {
  return JSON.parse(/<script type="application\/json" id="signing-data">([^<]*)<\/script>/.exec(html)![1]);
}

describe('framing the signing page', () => {
  it('forbids every frame with frame-ancestors none and X-Frame-Options DENY while the account allows no origin', async () => {
    const f = await signingFixture();
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('X-Frame-Options')).toBe('DENY');
    expect(embedData(res.text)).toBeNull();
  });

  it('lets exactly the account’s embed_origins frame it, without X-Frame-Options', async () => {
    const f = await signingFixture();
    await allowFraming(f, ['https://app.example.com', 'https://portal.example.org:8443']);
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.headers.get('Content-Security-Policy')).toContain('frame-ancestors https://app.example.com https://portal.example.org:8443');
    expect(res.headers.get('Content-Security-Policy')).not.toContain("'none'; frame");
    expect(res.headers.get('X-Frame-Options')).toBeNull();
  });

  it('keeps frame-ancestors none on the page for an unknown link', async () => {
    const res = await api('GET', '/s/NoSuchSigningLink1');
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('X-Frame-Options')).toBe('DENY');
  });

  it('renders the allowed origins and the signer into the form page for its load message', async () => {
    const f = await signingFixture();
    await allowFraming(f, ['https://app.example.com']);
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(embedData(res.text)).toEqual({
      origins: ['https://app.example.com'],
      event: 'load',
      submission_id: f.submissionId,
      submitter_id: f.submitters[0].id,
      slug: f.submitters[0].slug,
      status: 'sent',
      submission_status: 'pending',
      submitter: {
        id: f.submitters[0].id,
        submission_id: f.submissionId,
        slug: f.submitters[0].slug,
        email: f.submitters[0].email,
        name: 'Signer 1',
        role: 'First Party',
        status: 'sent',
        external_id: null,
        opened_at: null,
        completed_at: null,
        declined_at: null,
        decline_reason: null,
        values: [
          { field: 'Full name', value: null },
          { field: 'Signature', value: null },
        ],
        submission: {
          id: f.submissionId,
          status: 'pending',
          url: `https://api.test/api/submissions/${f.submissionId}`,
          combined_document_url: null,
          audit_log_url: null,
        },
        template: { id: f.templateId, name: 'Signing test' },
      },
    });
  });

  it('carries the completed signer as DocuSeal’s submitter: their own values by field name, never another signer’s', async () => {
    const f = await signingFixture({
      roles: ['Client', 'Witness'],
      order: 'parallel',
      fields: [
        { name: 'Full name', type: 'text', role: 'Client' },
        { name: 'Signature', type: 'signature', role: 'Client' },
        { name: 'Witness note', type: 'text', role: 'Witness' },
      ],
    });
    await allowFraming(f, ['https://app.example.com']);
    const [client, witness] = f.submitters;
    const saved = await page('PUT', `/s/${witness.slug}/values`, { body: { values: { [f.field('Witness note')]: 'Witness secret' } } });
    expect(saved.status).toBe(200);
    await acceptDisclosure(client.slug);
    const submitted = await page('POST', `/s/${client.slug}/submit`, {
      body: { values: { [f.field('Full name')]: 'Ada Lovelace', [f.field('Signature')]: 'Ada L' } },
    });
    expect(submitted.status).toBe(200);
    const res = await api('GET', `/s/${client.slug}`);
    const data = embedData(res.text) as { event: string; submitter: Record<string, unknown> };
    expect(data.event).toBe('completed');
    expect(data.submitter).toMatchObject({
      id: client.id,
      submission_id: f.submissionId,
      email: client.email,
      role: 'Client',
      status: 'completed',
      values: [
        { field: 'Full name', value: 'Ada Lovelace' },
        { field: 'Signature', value: 'Ada L' },
      ],
      submission: { id: f.submissionId, status: 'pending' },
      template: { id: f.templateId, name: 'Signing test' },
    });
    expect(data.submitter.completed_at).toEqual(expect.any(String));
    expect(res.text).not.toContain('Witness secret');
    expect(res.text).not.toContain('Witness note');
  });

  it('carries a declined signer’s reason in DocuSeal’s submitter', async () => {
    const f = await signingFixture();
    await allowFraming(f, ['https://app.example.com']);
    await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: { reason: 'Wrong amount' } });
    const data = embedData((await api('GET', `/s/${f.submitters[0].slug}`)).text) as { event: string; submitter: Record<string, unknown> };
    expect(data.event).toBe('declined');
    expect(data.submitter).toMatchObject({ id: f.submitters[0].id, status: 'declined', decline_reason: 'Wrong amount' });
    expect(data.submitter.declined_at).toEqual(expect.any(String));
  });

  it('names the completed, declined and expired states as the page’s event, each framed by the allowed origins', async () => {
    const shard = async (f: Fixture) => shardOf(f.account.accountId);
    const completed = await signingFixture();
    await allowFraming(completed, ['https://app.example.com']);
    await (await shard(completed))
      .prepare("UPDATE submitters SET status = 'completed' WHERE id = ?")
      .bind(completed.submitters[0].id)
      .run();
    const declined = await signingFixture();
    await allowFraming(declined, ['https://app.example.com']);
    await page('POST', `/s/${declined.submitters[0].slug}/decline`, { body: { reason: 'Wrong amount' } });
    const expired = await signingFixture();
    await allowFraming(expired, ['https://app.example.com']);
    await (await shard(expired)).prepare("UPDATE submissions SET status = 'expired' WHERE id = ?").bind(expired.submissionId).run();
    for (const [f, event] of [
      [completed, 'completed'],
      [declined, 'declined'],
      [expired, 'expired'],
    ] as const) {
      const res = await api('GET', `/s/${f.submitters[0].slug}`);
      expect(res.text).toContain(`id="${event}"`);
      expect(embedData(res.text)?.event).toBe(event);
      expect(res.headers.get('Content-Security-Policy')).toContain('frame-ancestors https://app.example.com');
    }
  });
});

describe('the embedding host’s options', () => {
  const fields = [
    { name: 'Full name', type: 'text' },
    { name: 'Plan', type: 'select', options: ['Basic', 'Pro'] },
    { name: 'Signature', type: 'signature' },
  ];

  it('prefills the signer’s own fields by name and leaves values the field would refuse and pictures out', async () => {
    const f = await signingFixture({ fields });
    const values = JSON.stringify({ 'Full name': 'Ada Lovelace', Plan: 'Enterprise', Signature: 'data:image/png;base64,AAAA' });
    const res = await api('GET', `/s/${f.submitters[0].slug}?values=${encodeURIComponent(values)}`);
    expect(signingData(res.text).values).toEqual({ [f.field('Full name')]: 'Ada Lovelace' });
  });

  it('does not overwrite what the signer already saved', async () => {
    const f = await signingFixture({ fields });
    await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: { [f.field('Full name')]: 'Saved Name' } } });
    const res = await api('GET', `/s/${f.submitters[0].slug}?values=${encodeURIComponent(JSON.stringify({ 'Full name': 'Host Name' }))}`);
    expect(signingData(res.text).values[f.field('Full name')]).toBe('Saved Name');
  });

  it('marks the fields named in readonly_fields as locked', async () => {
    const f = await signingFixture({ fields });
    const res = await api('GET', `/s/${f.submitters[0].slug}?readonly_fields=${encodeURIComponent('Full name, Nope')}`);
    const locked = signingData(res.text)
      .fields.filter((x) => x.locked)
      .map((x) => x.uuid);
    expect(locked).toEqual([f.field('Full name')]);
  });

  it('serves the page in the language of a valid tag (its base when the region is not ours) and ignores an invalid one', async () => {
    const f = await signingFixture();
    expect((await api('GET', `/s/${f.submitters[0].slug}?language=de-de`)).text).toContain('<html lang="de" dir="ltr">');
    expect((await api('GET', `/s/${f.submitters[0].slug}?language=${encodeURIComponent('"><script>')}`)).text).toContain(
      '<html lang="en" dir="ltr">',
    );
  });

  it('themes the page with hex colours and a radius, and drops a value that tries to break out of the style', async () => {
    const f = await signingFixture();
    const query = `primary_color=${encodeURIComponent('#0f766e')}&border_radius=4px&header_color=${encodeURIComponent('red}</style><script>alert(1)</script>')}`;
    const res = await api('GET', `/s/${f.submitters[0].slug}?${query}`);
    const p = brandPalette('#0f766e', '#0f766e');
    expect(res.text).toContain(
      `:root{--primary:#0f766e;--on-primary:${p.onPrimary};--primary-hover:${p.primaryHover};--accent:${p.accent};--radius:4px}`,
    );
    expect(res.text).not.toContain('alert(1)');
  });

  it('keeps a host’s theme readable: text on its primary and header colours, and its text on its background, at 4.5:1', async () => {
    const f = await signingFixture();
    const theme = { primary_color: '#ffee00', header_color: '#1e3a8a', background_color: '#fafafa', text_color: '#bbbbbb' };
    const res = await api('GET', `/s/${f.submitters[0].slug}?${new URLSearchParams(theme)}`);
    const css = /:root\{(--primary:#ffee00[^}]*)\}/.exec(res.text)?.[1];
    const vars = Object.fromEntries(css!.split(';').map((d) => d.split(':')));
    expect(vars['--primary']).toBe('#ffee00');
    expect(contrastRatio(vars['--on-primary'], vars['--primary'])).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(vars['--accent'], NEUTRAL.canvas)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(vars['--on-header'], vars['--header'])).toBeGreaterThanOrEqual(4.5);
    expect(vars['--background']).toBe('#fafafa');
    // The host's light grey text would read at 1.9:1 on its background: it becomes black.
    expect(contrastRatio('#bbbbbb', '#fafafa')).toBeLessThan(4.5);
    expect(contrastRatio(vars['--text'], vars['--background'])).toBeGreaterThanOrEqual(4.5);
  });

  it('uses completed_redirect_url for the completed page’s Continue link, leaving the frame, and ignores a javascript: one', async () => {
    const f = await signingFixture();
    await (await shardOf(f.account.accountId))
      .prepare("UPDATE submitters SET status = 'completed' WHERE id = ?")
      .bind(f.submitters[0].id)
      .run();
    const redirect = encodeURIComponent('https://host.example.com/done');
    const res = await api('GET', `/s/${f.submitters[0].slug}?completed_redirect_url=${redirect}`);
    expect(res.text).toContain('href="https://host.example.com/done" id="continue" rel="noopener" target="_top"');
    const bad = await api('GET', `/s/${f.submitters[0].slug}?completed_redirect_url=${encodeURIComponent('javascript:alert(1)')}`);
    expect(bad.text).not.toContain('id="continue"');
  });
});

describe('the email verification cookie', () => {
  it('is SameSite=None, Secure and Partitioned over https, so that a framed page keeps it', async () => {
    const f = await signingFixture({ preferences: { require_email_2fa: true }, fields: [{ name: 'Name', type: 'text' }] });
    const slug = f.submitters[0].slug;
    await page('POST', `/s/${slug}/verification`, { body: {} });
    const [mail] = await messagesTo(f.submitters[0].email, 'verification_code');
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    const res = await page('POST', `/s/${slug}/verification/check`, { body: { code } });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('Set-Cookie')!;
    expect(cookie).toContain('SameSite=None');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('Partitioned');
    expect(cookie).toContain('HttpOnly');
  });
});

describe('the embed script', () => {
  for (const path of ['/embed/v1/form.js', '/js/form.js']) {
    it(`is served at ${path} as JavaScript defining <signing-form>, DocuSeal’s <docuseal-form> and both globals`, async () => {
      const res = await api('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toContain('javascript');
      expect(res.text).toContain('signing-form');
      expect(res.text).toContain('docuseal-form');
      expect(res.text).toContain('SigningService');
      expect(res.text).toContain('SignService');
    });
  }
});
