// Malformed input answers 4xx with a sentence (issue 21 › 11): dates, JSON nesting, UTF-8, field types.
import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, partnerKeys, type TestAccount, clientAddress } from '../helpers';
import { makePdf, pdfFile, toBase64 } from '../fixtures/pdfs';
import { createTemplate, type TemplateFixture } from '../submission-fixtures';
import { signingFixture } from '../signing/fixtures';
import { translatorFor } from '../../src/lib/i18n/catalogs';

let owner: TestAccount;
let template: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  template = await createTemplate(owner.token, ['Client']);
});

const submission = (extra: Record<string, unknown> = {}) => ({
  template_id: template.id,
  submitters: [{ role: 'Client', email: 'client@example.com' }],
  ...extra,
});

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
}

const encoder = new TextEncoder();

/** JSON text with the raw bytes `bad` (not UTF-8) spliced in where `@@` stands. */
function withBytes(json: string, bad: number[]): Uint8Array {
  const [before, after] = json.split('@@');
  return new Uint8Array([...encoder.encode(before), ...bad, ...encoder.encode(after)]);
}

async function sendBytes(method: string, path: string, body: Uint8Array, headers: Record<string, string>) {
  const res = await SELF.fetch(`https://api.test${path}`, {
    method,
    headers: { 'CF-Connecting-IP': clientAddress(), 'Content-Type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, json: (await res.json()) as { error: string } };
}

async function pendingSubmission() {
  const res = await api('POST', '/api/submissions', { token: owner.token, body: submission() });
  expect(res.status).toBe(201);
  return res.json as { id: number };
}

describe('date-time inputs', () => {
  it('answers 422 naming expire_at when POST /api/submissions sends one that is not a date', async () => {
    const res = await api('POST', '/api/submissions', { token: owner.token, body: submission({ expire_at: 'not-a-date' }) });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('expire_at must be a date-time such as 2026-01-31T12:00:00Z.');
  });

  it('answers 422 naming the element when a bulk create sends an expire_at that is not a date', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submissions: [{ submitters: [{ role: 'Client', email: 'a@example.com' }], expire_at: 'soon' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('submissions[0].expire_at must be a date-time such as 2026-01-31T12:00:00Z.');
  });

  it('answers 422 when POST /api/submissions/emails sends an expire_at that is not a date', async () => {
    const res = await api('POST', '/api/submissions/emails', {
      token: owner.token,
      body: { template_id: template.id, emails: 'a@example.com', expire_at: 'not-a-date' },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('expire_at must be a date-time such as 2026-01-31T12:00:00Z.');
  });

  it('refuses an expire_at in an extended year, which would not sort against stored timestamps', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: submission({ expire_at: '+275760-09-13T00:00:00.000Z' }),
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^expire_at must be a date-time/);
  });

  it('refuses an expire_at on a day the month does not have instead of rolling it over', async () => {
    const res = await api('POST', '/api/submissions', { token: owner.token, body: submission({ expire_at: '2099-02-30T00:00:00Z' }) });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^expire_at must be a date-time/);
  });

  it('refuses a PUT /api/submissions/{id} expire_at on a day the month does not have', async () => {
    const { id } = await pendingSubmission();
    const res = await api('PUT', `/api/submissions/${id}`, { token: owner.token, body: { expire_at: '2099-02-30T00:00:00Z' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^expire_at must be a date-time/);
  });

  it('clears expire_at on PUT /api/submissions/{id} given "", as creation reads "" as no expiry', async () => {
    const created = await api('POST', '/api/submissions', {
      token: owner.token,
      body: submission({ expire_at: '2099-01-31 12:00:00 UTC' }),
    });
    expect(created.json.expire_at).toBe('2099-01-31T12:00:00.000Z');
    const res = await api('PUT', `/api/submissions/${created.json.id}`, { token: owner.token, body: { expire_at: '' } });
    expect(res.status).toBe(200);
    expect(res.json.expire_at).toBeNull();
  });

  it('refuses a created_after that only a lenient date parser reads as a date', async () => {
    const res = await api('GET', '/api/submissions?created_after=1', { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('created_after must be a date-time such as 2026-01-31T12:00:00Z.');
  });

  it('refuses a completed_before that is not a calendar date', async () => {
    const res = await api('GET', '/api/submitters?completed_before=March%207', { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('completed_before must be a date-time such as 2026-01-31T12:00:00Z.');
  });
});

describe('JSON nesting depth', () => {
  it('answers 400 with a sentence, not 409, when metadata is nested 3,000 levels deep', async () => {
    const res = await api('POST', '/api/submissions', { token: owner.token, body: submission({ metadata: nested(3000) }) });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The request body nests objects and arrays more than 64 levels deep; send a flatter structure.');
  });

  it('refuses a body one level deeper than the limit on PUT /api/submissions/{id}', async () => {
    const { id } = await pendingSubmission();
    // The body object is level 1, metadata level 2: 63 more objects make 65.
    const res = await api('PUT', `/api/submissions/${id}`, { token: owner.token, body: { metadata: nested(64) } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/more than 64 levels deep/);
  });

  it('refuses deeply nested arrays in a template created from JSON', async () => {
    const res = await api('POST', '/api/templates/pdf', {
      token: owner.token,
      body: `{"name":"Deep","documents":[{"name":"a","file":"${toBase64(await makePdf(1))}"}],"preferences":{"x":${'['.repeat(100)}${']'.repeat(100)}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/more than 64 levels deep/);
  });

  it('refuses a deeply nested JSON part of a multipart template body', async () => {
    const form = new FormData();
    form.set('name', 'Deep parts');
    form.set('submitters', `[${'['.repeat(100)}${']'.repeat(100)}]`);
    form.set('documents[0][file]', pdfFile(await makePdf(1), 'a.pdf'));
    const res = await api('POST', '/api/templates/pdf', { token: owner.token, body: form });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The submitters part nests objects and arrays more than 64 levels deep; send a flatter structure.');
  });

  it('refuses a deeply nested body on the signing page', async () => {
    const fx = await signingFixture();
    const res = await api('PUT', `/s/${fx.submitters[0].slug}/values`, {
      headers: { Origin: 'https://api.test' },
      body: { values: {}, extra: nested(100) },
    });
    expect(res.status).toBe(400);
    // A signer is told in their language that the page sent something unreadable (issue 31 › 1).
    expect(res.json.error).toBe(translatorFor('en')('signer_error.body_malformed'));
  });

  it('refuses a deeply nested body on the partner control plane', async () => {
    const res = await api('POST', '/api/partner/v1/accounts', {
      headers: { Authorization: `Bearer ${partnerKeys()[0]}` },
      body: { name: 'Deep Co', extra: nested(100) },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/more than 64 levels deep/);
  });
});

describe('UTF-8', () => {
  it('refuses a tenant JSON body with bytes that are not UTF-8 instead of storing U+FFFD', async () => {
    const body = withBytes(
      `{"template_id":"${template.id}","submitters":[{"role":"Client","email":"a@example.com"}],"metadata":{"note":"@@"}}`,
      [0xff, 0xfe],
    );
    const res = await sendBytes('POST', '/api/submissions', body, { 'X-Auth-Token': owner.token });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The request body is not valid UTF-8; send JSON encoded as UTF-8.');
  });

  it('refuses a string escaping a lone UTF-16 surrogate, which no UTF-8 text can carry', async () => {
    const body = `{"template_id":"${template.id}","submitters":[{"role":"Client","email":"a@example.com"}],"metadata":{"note":"\\ud800"}}`;
    const res = await api('POST', '/api/submissions', { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(
      'The request body has a string with an unpaired UTF-16 surrogate (a \\uD800–\\uDFFF escape), which is not valid Unicode.',
    );
  });

  it('refuses an object key escaping a lone surrogate', async () => {
    const body = `{"template_id":"${template.id}","submitters":[{"role":"Client","email":"a@example.com"}],"metadata":{"\\udfff":1}}`;
    const res = await api('POST', '/api/submissions', { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/unpaired UTF-16 surrogate/);
  });

  it('refuses a template created from JSON whose name is not UTF-8', async () => {
    const body = withBytes(`{"name":"Bad @@ name","documents":[{"name":"a","file":"${toBase64(await makePdf(1))}"}]}`, [0xc3, 0x28]);
    const res = await sendBytes('POST', '/api/templates/pdf', body, { 'X-Auth-Token': owner.token });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/not valid UTF-8/);
  });

  it('refuses a signing-page body that is not UTF-8', async () => {
    const fx = await signingFixture();
    const body = withBytes(`{"values":{"${fx.field('Full name')}":"Ann @@"}}`, [0xed, 0xa0, 0x80]);
    const res = await sendBytes('PUT', `/s/${fx.submitters[0].slug}/values`, body, { Origin: 'https://api.test' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(translatorFor('en')('signer_error.body_malformed'));
  });

  it('refuses a partner body that is not UTF-8', async () => {
    const body = withBytes('{"name":"Bad @@ Co"}', [0x80]);
    const res = await sendBytes('POST', '/api/partner/v1/accounts', body, { Authorization: `Bearer ${partnerKeys()[0]}` });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/not valid UTF-8/);
  });
});

describe('template field types', () => {
  const area = { page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 };

  it('names the field by its name when a created template has a field of an unknown type', async () => {
    const res = await api('POST', '/api/templates/pdf', {
      token: owner.token,
      body: {
        name: 'Typo',
        documents: [{ name: 'a', file: toBase64(await makePdf(1)) }],
        fields: [{ name: 'Signature 1', type: 'foo', areas: [area] }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^fields\[0\] "Signature 1": type "foo" is not a field type; use one of: text, signature, /);
  });

  it('names the field by its name when an edit saves a field of an unknown type', async () => {
    const res = await api('PUT', `/api/templates/${template.id}`, {
      token: owner.token,
      body: { fields: [{ name: 'Client Signature', type: 'sig', role: 'Client', areas: [area] }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^fields\[0\] "Client Signature": type "sig" is not a field type; use one of: /);
  });
});
