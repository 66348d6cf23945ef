// Hostile PDFs at upload (text tags) and in field detection (docs/security.md › Hostile files): a file
// pdf.js would decode or draw past the reading limits is refused with a 422 naming the limit at upload,
// and is a failed document naming it in detection; images are never decoded.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, type TestAccount } from '../helpers';
import { toBase64 } from '../fixtures/pdfs';
import { makeForm } from '../fixtures/forms/made-form';
import { formDrawnTimes, spacesBehindType0Font, withHugeImage } from '../fixtures/hostile-reading';
import { loadPdf } from '../../src/services/pdf/load-pdf';
import { readPageText } from '../../src/services/pdf/page-text';

// pdf.js is transformed and loaded on first use, which takes the test runner several seconds once.
beforeAll(async () => {
  const form = await makeForm();
  await readPageText(form, await loadPdf(form));
}, 120_000);

async function upload(account: TestAccount, bytes: Uint8Array) {
  const started = performance.now();
  const res = await api('POST', '/api/templates/pdf', {
    token: account.token,
    body: { documents: [{ name: 'hostile', file: toBase64(bytes) }] },
  });
  console.log(`upload answered ${res.status} in ${Math.round(performance.now() - started)} ms`);
  return res;
}

async function detect(account: TestAccount, templateId: string) {
  const started = performance.now();
  const res = await api('POST', `/api/templates/${templateId}/ai/detect`, { token: account.token, body: {} });
  console.log(`detection answered ${res.json.status} in ${Math.round(performance.now() - started)} ms`);
  return res;
}

describe('a hostile PDF uploaded as a template', { timeout: 120_000 }, () => {
  it('with a gigabyte of deflated spaces behind a Type0 font is a 422 naming the 32 MB limit', async () => {
    const a = await createAccount();
    const res = await upload(a, await spacesBehindType0Font(1));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'documents[0] "hostile" cannot be read for text tags: page 1 needs more than 32 MB of decoded streams (its content, form XObjects, fonts and the pages before it), the limit for reading a PDF\'s text.',
    );
  });

  it('drawing a form XObject a million times is a 422 naming the 20,000 draws limit', async () => {
    const a = await createAccount();
    const res = await upload(a, await formDrawnTimes(1_000_000));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'documents[0] "hostile" cannot be read for text tags: page 1 draws form XObjects more than 20,000 times with the pages before it, counting forms inside forms, the limit for reading a PDF\'s text.',
    );
    const templates = await api('GET', '/api/templates', { token: a.token });
    expect(templates.json.data).toEqual([]);
  });

  it('drawing a form XObject a hundred times is read for its text tag', async () => {
    const a = await createAccount();
    const res = await upload(a, await formDrawnTimes(100));
    expect(res.status).toBe(201);
    expect(res.json.schema.map((f: { name: string }) => f.name)).toEqual(['Name']);
  });
});

describe('field detection of a hostile PDF', { timeout: 120_000 }, () => {
  /** A template from the drawn form whose stored file is then replaced by `bytes`, as if it had slipped in. */
  async function storedAs(a: TestAccount, bytes: Uint8Array) {
    const created = await upload(a, await makeForm());
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    await env.FILES.put(listed.objects[0].key, bytes);
    return created.json as { id: string; documents: { uuid: string }[] };
  }

  it('with a gigabyte of deflated spaces is a failed document naming the 32 MB limit', async () => {
    const a = await createAccount();
    const template = await storedAs(a, await spacesBehindType0Font(1));
    const res = await detect(a, template.id);
    expect(res.status).toBe(200);
    expect(res.json.errors).toEqual([
      {
        document_id: template.documents[0].uuid,
        message:
          "The PDF cannot be read for detection: page 1 needs more than 32 MB of decoded streams (its content, form XObjects, fonts and the pages before it), the limit for reading a PDF's text.",
      },
    ]);
  });

  it('drawing a form XObject a million times is a failed document naming the 20,000 draws limit', async () => {
    const a = await createAccount();
    const template = await storedAs(a, await formDrawnTimes(1_000_000));
    const res = await detect(a, template.id);
    expect(res.json.status).toBe('failed');
    expect(res.json.errors[0].message).toContain('draws form XObjects more than 20,000 times');
  });

  it('with a 10000 × 10000 image under the form proposes the form’s fields, the image never decoded', async () => {
    const a = await createAccount();
    const created = await upload(a, await withHugeImage(await makeForm()));
    expect(created.status).toBe(201);
    const res = await detect(a, created.json.id);
    expect(res.json.status).toBe('done');
    expect(res.json.fields.map((f: { type: string }) => f.type).sort()).toEqual(['checkbox', 'date', 'signature', 'text']);
  });
});
