// Hostile DOCX uploads (docs/security.md › Hostile files): a 60 MB image is a 422 naming the part limit,
// and a header of 150,000 unclosed <w:p > is read in one pass rather than once per paragraph.
import { env } from 'cloudflare:test';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { docxSourceKey } from '../../src/services/templates/docx-documents';
import { describe, expect, it } from 'vitest';
import { buildDocx, paragraph } from '../docx-fixtures';
import { toBase64 } from '../fixtures/pdfs';
import { api, createAccount } from '../helpers';

async function upload(file: Uint8Array) {
  const a = await createAccount();
  const started = performance.now();
  const res = await api('POST', '/api/templates/docx', {
    token: a.token,
    body: { documents: [{ name: 'hostile.docx', file: toBase64(file) }] },
  });
  console.log(`docx upload answered ${res.status} in ${Math.round(performance.now() - started)} ms`);
  return { a, res };
}

describe('a hostile DOCX uploaded as a template', { timeout: 120_000 }, () => {
  it('with a 60 MB image is a 422 naming the 10 MB limit for one part, and no template is made', async () => {
    const docx = zipSync(
      { ...unzipSync(buildDocx(paragraph('Hello'))), 'word/media/image1.png': new Uint8Array(60 * 1024 * 1024) },
      { level: 9 },
    );
    const { a, res } = await upload(docx);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'documents[0] "hostile.docx" has a part (word/media/image1.png) that expands past 10 MB, the limit for one image or other part of a DOCX.',
    );
    expect((await api('GET', '/api/templates', { token: a.token })).json.data).toEqual([]);
  });

  it('whose header holds 150,000 unclosed <w:p > is printed with its body and no header text', async () => {
    const files = unzipSync(buildDocx(paragraph('Body of the agreement'), { header: 'placeholder' }));
    files['word/header1.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${'<w:p >'.repeat(150_000)}</w:hdr>`,
    );
    const { res } = await upload(zipSync(files));
    expect(res.status).toBe(201);
    expect(res.json.documents).toHaveLength(1);
  });
});

describe('a submission of a DOCX template stored under earlier limits', { timeout: 120_000 }, () => {
  it('is a 422 naming the part past the limit, not a 500', async () => {
    const { a, res: created } = await upload(buildDocx(paragraph('Offer for [[client_name]].')));
    expect(created.status).toBe(201);
    // A 12 MB image was within the 64 MB archive limit this DOCX was once accepted under.
    const stored = zipSync({
      ...unzipSync(buildDocx(paragraph('Offer for [[client_name]].'))),
      'word/media/image1.png': new Uint8Array(12 * 1024 * 1024),
    });
    const template = await api('GET', `/api/templates/${created.json.id}`, { token: a.token });
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    const source = listed.objects.map((o) => o.key).find((key) => key.endsWith('/source.docx'))!;
    expect(source).toBe(docxSourceKey(source.slice(0, -'/source.docx'.length)));
    await env.FILES.put(source, stored);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: template.json.id,
        values: { client_name: 'ACME' },
        submitters: [{ role: template.json.submitters[0].name, email: 'jane@example.com' }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain(
      'the template\'s DOCX "hostile" has a part (word/media/image1.png) that expands past 10 MB, the limit for one image or other part of a DOCX.',
    );
  });
});
