// POST /api/templates/docx (and .docx on POST /api/templates): a DOCX with [[variables]] and
// [[if:…]] blocks is printed to PDF through Browser Rendering, the original kept; hostile archives are 422.
import { env, SELF } from 'cloudflare:test';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { agreementDocx, buildDocx, paragraph } from '../docx-fixtures';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { api, createAccount, clientAddress } from '../helpers';
import { downloadDocument, pageTexts } from '../rendering-fixtures';

async function created(token: string, body: unknown, path = '/api/templates/docx') {
  const res = await api('POST', path, { token, body });
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
  return res.json;
}

// Each conversion starts a browser session (a few seconds locally).
describe('POST /api/templates/docx', { timeout: 60_000 }, () => {
  it('creates a template whose document is the printed DOCX with variables shown as their tags', async () => {
    const a = await createAccount();
    const template = await created(a.token, { name: 'Agreement', documents: [{ name: 'agreement.docx', file: toBase64(agreementDocx) }] });
    expect(template.documents).toHaveLength(1);
    expect(template.documents[0]).toMatchObject({ content_type: 'application/pdf', page_count: 2, filename: 'agreement' });
    const pages = await pageTexts(await downloadDocument(a.token, template.id, template.documents[0].uuid));
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Agreement with [[client_name]], signed by [[signer_name]].');
    expect(pages[0]).toMatch(/Item\s+Price/);
    expect(pages[0]).toMatch(/\[\[item\]\]\s+\[\[price\]\]/);
    // Without values every condition is false: the block and both of its branches are left out.
    expect(pages[0]).not.toContain('discount');
    expect(pages[0]).not.toContain('TERMS');
    expect(pages[1]).toContain('SECOND-PAGE');
  });

  it('lets the original DOCX be downloaded as uploaded, at GET …/documents/{document_id}/original', async () => {
    const a = await createAccount();
    const template = await created(a.token, { name: 'Agreement', documents: [{ name: 'agreement.docx', file: toBase64(agreementDocx) }] });
    for (const ref of [template.documents[0].id, template.documents[0].uuid]) {
      const res = await SELF.fetch(`https://api.test/api/templates/${template.id}/documents/${ref}/original`, {
        headers: { 'X-Auth-Token': a.token, 'CF-Connecting-IP': clientAddress() },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(res.headers.get('Content-Disposition')).toContain('filename="agreement.docx"');
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(agreementDocx);
    }
    const doc = (await api('GET', '/api/openapi.json')).json;
    expect(doc.paths['/templates/{id}/documents/{document_id}/original'].get.responses['200']).toBeDefined();
  });

  it('answers 404 with a sentence for the original of a document uploaded as PDF', async () => {
    const a = await createAccount();
    const template = await created(
      a.token,
      { name: 'Plain', documents: [{ name: 'plain.pdf', file: toBase64(await makePdf(1)) }] },
      '/api/templates/pdf',
    );
    const res = await api('GET', `/api/templates/${template.id}/documents/${template.documents[0].id}/original`, { token: a.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatch(/was not uploaded as DOCX/);
  });

  it('keeps the original DOCX and the variables it references beside the PDF', async () => {
    const a = await createAccount();
    await created(a.token, { documents: [{ name: 'agreement.docx', file: toBase64(agreementDocx) }] });
    const keys = (await env.FILES.list({ prefix: `templates/${a.accountId}/` })).objects.map((o) => o.key);
    const original = await env.FILES.get(keys.find((k) => k.endsWith('/source.docx'))!);
    expect(new Uint8Array(await original!.arrayBuffer())).toEqual(agreementDocx);
    const source = await (await env.FILES.get(keys.find((k) => k.endsWith('/docx.json'))!))!.json();
    expect(source).toEqual({ variables: ['client_name', 'discount', 'item', 'price', 'signer_name', 'vip'] });
  });

  it('takes the DOCX as a multipart file on POST /api/templates too', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.append('name', 'Multipart DOCX');
    form.append(
      'documents[0][file]',
      new File([agreementDocx], 'agreement.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }),
    );
    const template = await created(a.token, form, '/api/templates');
    expect(template.name).toBe('Multipart DOCX');
    const pages = await pageTexts(await downloadDocument(a.token, template.id, template.documents[0].uuid));
    expect(pages[0]).toContain('[[client_name]]');
  });
});

/** A zip whose only entries are `files` (not a DOCX unless they make one). */
function zipOf(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(files, { level: 9 });
}

async function refused(file: Uint8Array, name = 'hostile.docx') {
  const a = await createAccount();
  return api('POST', '/api/templates/docx', { token: a.token, body: { documents: [{ name, file: toBase64(file) }] } });
}

describe('POST /api/templates/docx refusals', () => {
  it('answers 401 without a token', async () => {
    const res = await api('POST', '/api/templates/docx', { token: null, body: { documents: [{ file: toBase64(agreementDocx) }] } });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a token without templates:write', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('POST', '/api/templates/docx', { token: a.token, body: { documents: [{ file: toBase64(agreementDocx) }] } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:write');
  });

  it('answers 422 for a .docx that is not a zip archive', async () => {
    const res = await refused(strToU8('just some text, not a document'));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "hostile.docx" is not a DOCX file (a DOCX is a zip archive).');
  });

  it('answers 422 for a zip archive that is not a DOCX', async () => {
    const res = await refused(zipOf({ 'readme.txt': strToU8('hello') }));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "hostile.docx" is a zip archive but not a DOCX file (it has no word/document.xml).');
  });

  it('answers 422 for a zip bomb, counting inflated bytes rather than the sizes it declares', async () => {
    // 72 MB of zeros in parts of 9 MB (each within the part limit) compresses to ~72 KB.
    const zeros = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`word/media/zeros${n}.bin`, new Uint8Array(9 * 1024 * 1024)]));
    const res = await refused(zipOf({ '[Content_Types].xml': strToU8('<Types/>'), ...zeros }));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "hostile.docx" expands to more than 32 MB when unzipped.');
  });

  it('answers 422 for an XML part over 16 MB', async () => {
    const huge = buildDocx(paragraph('x'.repeat(17 * 1024 * 1024)));
    const res = await refused(huge);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "hostile.docx" has an XML part (word/document.xml) over 16 MB.');
  });

  it('answers 422 for a damaged zip archive', async () => {
    const damaged = agreementDocx.slice();
    damaged.fill(0x41, 60, 400);
    const res = await refused(damaged);
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(
      /^documents\[0\] "hostile.docx" (is a damaged zip archive|has template tags|could not be read as a DOCX file)/,
    );
  });

  it('answers 422 naming an unclosed [[if:…]] block', async () => {
    const res = await refused(buildDocx(paragraph('[[if:vip]]') + paragraph('never closed')));
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^documents\[0\] "hostile.docx" has template tags docxtemplater cannot read: .*vip/);
  });

  it('answers 422 for an [[else]] outside any block', async () => {
    const res = await refused(buildDocx(paragraph('[[else]]')));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'documents[0] "hostile.docx" has template tags docxtemplater cannot read: has an [[else]] outside any [[if:…]] block.',
    );
  });
});
