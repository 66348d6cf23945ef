// Field detection: POST /api/templates/{id}/ai/detect proposes fields from the page text and drawing,
// GET …/ai/status answers the last result; apply stores the proposals as a new version.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount, createToken, shardOf } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { makeContentBomb, makeForm } from '../fixtures/forms/made-form';

type Created = { id: string; version: number; fields: unknown[]; documents: { uuid: string }[] };

async function templateFrom(token: string, pdf: Uint8Array): Promise<Created> {
  const res = await api('POST', '/api/templates/pdf', {
    token,
    body: { name: 'Form', documents: [{ name: 'Form', file: toBase64(pdf) }] },
  });
  if (res.status !== 201) throw new Error(`template create answered ${res.status}: ${res.text}`);
  return res.json;
}

describe('POST /api/templates/{id}/ai/detect', { timeout: 60_000 }, () => {
  it('proposes the signature, date, name and checkbox fields of a drawn form', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('done');
    const byType = Object.fromEntries(res.json.fields.map((f: { type: string }) => [f.type, f]));
    expect(Object.keys(byType).sort()).toEqual(['checkbox', 'date', 'signature', 'text']);
    expect(byType.signature).toMatchObject({ name: 'Signature', role: 'First Party', page: 1, document_id: template.documents[0].uuid });
    expect(byType.text.name).toBe('Full name');
    expect(byType.checkbox.name).toBe('I agree to the terms');
    // The signature line runs from x 130 to 330 at y 198 (592 from the top) of a 612 × 792 page.
    expect(byType.signature.area.x).toBeCloseTo(130 / 612, 2);
    expect(byType.signature.area.w).toBeCloseTo(200 / 612, 2);
    expect(byType.signature.area.y + byType.signature.area.h).toBeCloseTo(594 / 792, 2);
    for (const f of res.json.fields) expect(f.confidence).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps the result for ai/status', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const before = await api('GET', `/api/templates/${template.id}/ai/status`, { token: a.token });
    expect(before.status).toBe(200);
    expect(before.json).toMatchObject({ status: 'none', fields: [], detected_at: null });
    const detected = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token });
    const after = await api('GET', `/api/templates/${template.id}/ai/status`, { token: a.token });
    expect(after.json.status).toBe('done');
    expect(after.json.fields).toEqual(detected.json.fields);
  });

  it('stores the proposals as a new template version with apply: true', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: { apply: true } });
    expect(res.status).toBe(200);
    expect(res.json.applied_version).toBe(template.version + 1);
    const stored = await api('GET', `/api/templates/${template.id}`, { token: a.token });
    expect(stored.json.version).toBe(template.version + 1);
    expect(stored.json.schema.map((f: { name: string; type: string }) => `${f.type}:${f.name}`).sort()).toEqual(
      res.json.fields.map((f: { name: string; type: string }) => `${f.type}:${f.name}`).sort(),
    );
    const versions = await api('GET', `/api/templates/${template.id}/versions`, { token: a.token });
    expect(versions.json.data.map((v: { version: number }) => v.version)).toContain(template.version + 1);
  });

  it('proposes nothing and changes nothing on a page with no blanks', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makePdf(2));
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: { apply: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'done', fields: [] });
    expect(res.json.applied_version).toBeUndefined();
  });

  it('answers 401 without a token', async () => {
    const res = await api('POST', '/api/templates/tpl_x/ai/detect', { body: {} });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a token with templates:read only', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const token = await createToken(a.accountId, a.userId, ['templates:read']);
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token, body: {} });
    expect(res.status).toBe(403);
  });

  it('answers 404 for another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: b.token, body: {} });
    expect(res.status).toBe(404);
  });

  it('answers 422 with a sentence for a confidence out of range or an unknown key', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: { min_confidence: 2 } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('between 0 and 1');
    const unknown = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: { aply: true } });
    expect(unknown.status).toBe(422);
  });

  it('reports a content-stream bomb as a failed document, not a 500', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeContentBomb(64));
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('failed');
    expect(res.json.errors).toEqual([{ document_id: template.documents[0].uuid, message: expect.stringContaining('cannot be read') }]);
  });

  it('reports a stored file that is not a PDF as failed, not a 500', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    await env.FILES.put(listed.objects[0].key, '%PDF-1.7\n1 0 obj <</Type/Catalog/Pages 9 0 R>> garbage \u0000\u0001');
    const res = await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('failed');
  });
});

describe('GET /api/templates/{id}/ai/status', () => {
  it('reports a detection whose request died while running as failed, and a new detect runs', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const shard = await shardOf(a.accountId);
    const document = await shard
      .prepare('SELECT r2_key FROM template_documents WHERE uuid = ?')
      .bind(template.documents[0].uuid)
      .first<{ r2_key: string }>();
    const put = (minutesAgo: number) =>
      env.FILES.put(
        `${document!.r2_key}/field-detection.json`,
        JSON.stringify({ status: 'running', fields: [], detected_at: new Date(Date.now() - minutesAgo * 60_000).toISOString() }),
      );
    await put(1);
    expect((await api('GET', `/api/templates/${template.id}/ai/status`, { token: a.token })).json.status).toBe('running');
    await put(6);
    const stale = await api('GET', `/api/templates/${template.id}/ai/status`, { token: a.token });
    expect(stale.json.status).toBe('failed');
    expect(stale.json.errors).toEqual([{ document_id: template.documents[0].uuid, message: expect.stringContaining('start it again') }]);
    expect((await api('POST', `/api/templates/${template.id}/ai/detect`, { token: a.token, body: {} })).json.status).toBe('done');
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/templates/tpl_x/ai/status')).status).toBe(401);
  });

  it('answers 403 to a token without templates:read', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const token = await createToken(a.accountId, a.userId, ['submissions:read']);
    expect((await api('GET', `/api/templates/${template.id}/ai/status`, { token })).status).toBe(403);
  });

  it('answers to a token with templates:read', async () => {
    const a = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    const token = await createToken(a.accountId, a.userId, ['templates:read']);
    expect((await api('GET', `/api/templates/${template.id}/ai/status`, { token })).status).toBe(200);
  });

  it('answers 404 for another account’s template', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const template = await templateFrom(a.token, await makeForm());
    expect((await api('GET', `/api/templates/${template.id}/ai/status`, { token: b.token })).status).toBe(404);
  });

  it('answers 422 for an id that cannot be a template', async () => {
    const a = await createAccount();
    const res = await api('GET', `/api/templates/${'x'.repeat(300)}/ai/status`, { token: a.token });
    expect([404, 422]).toContain(res.status);
  });
});
