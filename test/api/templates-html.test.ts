// POST /api/templates/html: HTML printed to PDF by Browser Rendering (the local binding runs Chromium),
// stored like a PDF upload; hostile HTML runs no script and reads no file (remote loads:
// test/services/rendering/html-to-pdf.test.ts).
import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { downloadDocument, pageTexts } from '../rendering-fixtures';

/** Enough paragraphs to run over several pages of any size. */
function longHtml(marker: string, paragraphs = 120): string {
  return `<html><body>${Array.from({ length: paragraphs }, (_, i) => `<p>${marker} paragraph ${i + 1}</p>`).join('')}</body></html>`;
}

async function created(token: string, body: unknown) {
  const res = await api('POST', '/api/templates/html', { token, body });
  if (res.status !== 201) throw new Error(`POST /api/templates/html answered ${res.status}: ${res.text}`);
  return res.json;
}

async function firstDocumentPdf(token: string, template: { id: string; documents: { uuid: string }[] }) {
  return downloadDocument(token, template.id, template.documents[0].uuid);
}

// Each render starts a browser session (a few seconds locally).
describe('POST /api/templates/html', { timeout: 60_000 }, () => {
  it('creates a template whose document is the printed HTML', async () => {
    const a = await createAccount();
    const template = await created(a.token, {
      name: 'Offer letter',
      html: '<h1>Offer letter</h1><p>Dear candidate</p>',
      external_id: 'offer-1',
      folder_name: 'HR',
    });
    expect(template).toMatchObject({ name: 'Offer letter', external_id: 'offer-1', folder_name: 'HR', version: 1, schema: [] });
    expect(template.documents).toHaveLength(1);
    expect(template.documents[0]).toMatchObject({ content_type: 'application/pdf', page_count: 1, filename: 'Offer letter' });
    const [page] = await pageTexts(await firstDocumentPdf(a.token, template));
    expect(page).toContain('Dear candidate');
  });

  it('prints the header and the footer on every page', async () => {
    const a = await createAccount();
    const template = await created(a.token, {
      html: longHtml('Body'),
      html_header: '<div>HEADER-MARK</div>',
      html_footer: '<div>FOOTER-MARK page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
    });
    const pages = await pageTexts(await firstDocumentPdf(a.token, template));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(template.documents[0].page_count).toBe(pages.length);
    pages.forEach((text, i) => {
      expect(text).toContain('HEADER-MARK');
      expect(text).toContain(`FOOTER-MARK page ${i + 1} of ${pages.length}`);
    });
  });

  it('creates one document per entry of documents, in order and with their names', async () => {
    const a = await createAccount();
    const template = await created(a.token, {
      name: 'Bundle',
      documents: [
        { name: 'Contract', html: '<p>FIRST-DOCUMENT</p>' },
        { name: 'Annex', html: '<p>SECOND-DOCUMENT</p>' },
      ],
    });
    expect(template.documents.map((d: { filename: string }) => d.filename)).toEqual(['Contract', 'Annex']);
    const texts = await Promise.all(
      template.documents.map(async (d: { uuid: string }) =>
        (await pageTexts(await downloadDocument(a.token, template.id, d.uuid))).join(''),
      ),
    );
    expect(texts[0]).toContain('FIRST-DOCUMENT');
    expect(texts[1]).toContain('SECOND-DOCUMENT');
  });

  it('prints on the page size given by size', async () => {
    const a = await createAccount();
    const template = await created(a.token, { html: '<p>A4</p>', size: 'A4' });
    const pdf = await PDFDocument.load(await firstDocumentPdf(a.token, template));
    const { width, height } = pdf.getPage(0).getSize();
    // Chromium sizes A4 in hundredths of an inch (8.27 × 11.7 in): within a point of 595 × 842.
    expect(width).toBeCloseTo(595.28, -0.5);
    expect(height).toBeCloseTo(841.89, -0.5);
  });

  it('prints on Letter when no size is given', async () => {
    const a = await createAccount();
    const template = await created(a.token, { html: '<p>Letter</p>' });
    const pdf = await PDFDocument.load(await firstDocumentPdf(a.token, template));
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([612, 792]);
  });

  it('keeps the HTML source beside the PDF in R2', async () => {
    const a = await createAccount();
    const template = await created(a.token, { html: '<p>Source kept</p>', html_footer: '<b>foot</b>', size: 'Legal' });
    const listed = await env.FILES.list({ prefix: `templates/${a.accountId}/` });
    const sourceKey = listed.objects.map((o) => o.key).find((key) => key.endsWith('/source.json'));
    expect(sourceKey).toBeDefined();
    const source = await (await env.FILES.get(sourceKey!))!.json();
    expect(source).toEqual({ html: '<p>Source kept</p>', html_header: null, html_footer: '<b>foot</b>', size: 'Legal' });
    expect(template.documents).toHaveLength(1);
  });
});

describe('POST /api/templates/html with hostile HTML', { timeout: 60_000 }, () => {
  it('does not run scripts in the document or its header', async () => {
    const a = await createAccount();
    const template = await created(a.token, {
      html: '<p id="t">STATIC-TEXT</p><script>document.getElementById("t").textContent = "SCRIPT-RAN";</script><img src="x" onerror="document.body.append(\'HANDLER-RAN\')">',
      html_header: '<span id="h">HEADER-STATIC</span><script>document.getElementById("h").textContent = "HEADER-SCRIPT-RAN";</script>',
    });
    const text = (await pageTexts(await firstDocumentPdf(a.token, template))).join('\n');
    expect(text).toContain('STATIC-TEXT');
    expect(text).toContain('HEADER-STATIC');
    expect(text).not.toContain('SCRIPT-RAN');
    expect(text).not.toContain('HANDLER-RAN');
  });

  it('reads no local file through file: URLs', async () => {
    const a = await createAccount();
    const template = await created(a.token, {
      html: '<p>BEFORE</p><iframe src="file:///etc/passwd" width="600" height="400"></iframe><img src="file:///etc/passwd"><object data="file:///etc/passwd" type="text/plain"></object><p>AFTER</p>',
    });
    const text = (await pageTexts(await firstDocumentPdf(a.token, template))).join('\n');
    expect(text).toContain('BEFORE');
    expect(text).not.toMatch(/root:.*:0:0:/);
  });

  it('keeps data: images, which reach nothing', async () => {
    const a = await createAccount();
    // A 1×1 PNG inline: the document renders with it (the image is allowed, so it is not an error).
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const template = await created(a.token, { html: `<p>WITH-IMAGE</p><img src="data:image/png;base64,${png}" width="200" height="200">` });
    const pdf = await firstDocumentPdf(a.token, template);
    expect(new TextDecoder('latin1').decode(pdf)).toMatch(/\/Subtype\s*\/Image/);
  });
});

describe('POST /api/templates/html refusals', () => {
  it('answers 401 without a token', async () => {
    const res = await api('POST', '/api/templates/html', { token: null, body: { html: '<p>x</p>' } });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a token without templates:write', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { html: '<p>x</p>' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: templates:write');
  });

  it('answers 422 naming html when neither html nor documents is given', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { name: 'Empty' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('html must be given: the HTML of the document (or documents, a list of {name, html}).');
  });

  it('answers 422 when both html and documents are given', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { html: '<p>x</p>', documents: [{ html: '<p>y</p>' }] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Send either html or documents, not both.');
  });

  it('answers 422 listing the page sizes for an unknown size', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { html: '<p>x</p>', size: 'B5' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('size must be one of Letter, Legal, Tabloid, Ledger, A0, A1, A2, A3, A4, A5, A6');
  });

  it('answers 422 for HTML over 2,000,000 characters', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { html: 'x'.repeat(2_000_001) } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('html must be at most 2,000,000 characters of HTML');
  });

  it('answers 422 for a header over 50,000 characters', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { html: '<p>x</p>', html_header: 'x'.repeat(50_001) } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('html_header must be at most 50,000 characters of HTML');
  });

  it('answers 422 for more than 10 documents', async () => {
    const a = await createAccount();
    const documents = Array.from({ length: 11 }, (_, i) => ({ html: `<p>${i}</p>` }));
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { documents } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('documents can list at most 10 documents');
  });

  it('answers 413 for a body over 10 MB before reading it', async () => {
    const a = await createAccount();
    const documents = Array.from({ length: 6 }, () => ({ html: 'x'.repeat(1_900_000) }));
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { documents } });
    expect(res.status).toBe(413);
    expect(res.json.error).toBe('The request body is larger than 10 MB, the limit for this operation.');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/html', {
      token: a.token,
      body: '<p>not json</p>',
      headers: { 'Content-Type': 'text/html' },
    });
    expect(res.status).toBe(400);
  });
});
