// AcroForm fields of an uploaded PDF become template fields (issue 19 point 4): names, places, options
// and required flags; the stored file has no form left; hostile forms are bounded, never a 500.
import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from 'cloudflare:test';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { shardScope } from '../../src/db/shards';
import type { ShardStamp } from '../../src/lib/shard-queues';
import type { SealingQueueBody } from '../../src/env';
import { api, createAccount, type TestAccount } from '../helpers';
import { checkPdf, placedWords } from '../pdf-tools';
import { fromLatin1, latin1, toBase64 } from '../fixtures/pdfs';
// A real form no one here wrote: examples/gh-eforms.pdf of the LaTeX package grayhints (D. P. Story), from
// Debian's texlive-latex-extra-doc 2022.20230122-4 (/usr/share/doc/texlive-doc/latex/grayhints/examples/).
import grayhintsBase64 from '../fixtures/grayhints-eforms.pdf?inline';
import { shardNumberOf } from '../submission-fixtures';

const PAGE = { width: 612, height: 792 };

/** A two-page form with one field of each kind; the signature field is on page 2. */
async function formPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const first = pdf.addPage([PAGE.width, PAGE.height]);
  const second = pdf.addPage([PAGE.width, PAGE.height]);
  const form = pdf.getForm();
  const name = form.createTextField('applicant.name');
  name.enableRequired();
  name.addToPage(first, { x: 100, y: 700, width: 200, height: 20 });
  form.createCheckBox('agree').addToPage(first, { x: 100, y: 650, width: 12, height: 12 });
  const plan = form.createRadioGroup('plan');
  plan.addOptionToPage('basic', first, { x: 100, y: 600, width: 12, height: 12 });
  plan.addOptionToPage('premium', first, { x: 200, y: 600, width: 12, height: 12 });
  const country = form.createDropdown('country');
  country.addOptions(['France', 'Germany', 'Spain']);
  country.addToPage(first, { x: 100, y: 550, width: 150, height: 20 });
  const signature = pdf.context.register(
    pdf.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFString.of('Applicant signature'),
      Rect: [300, 100, 500, 150],
      P: second.ref,
    }),
  );
  second.node.addAnnot(signature);
  pdf.catalog.getOrCreateAcroForm().addField(signature);
  return pdf.save();
}

async function upload(account: TestAccount, bytes: Uint8Array) {
  return api('POST', '/api/templates/pdf', { token: account.token, body: { documents: [{ name: 'form', file: toBase64(bytes) }] } });
}

async function stored(account: TestAccount, templateId: string, uuid: string): Promise<Uint8Array> {
  const res = await SELF.fetch(`https://api.test/api/templates/${templateId}/documents/${uuid}`, {
    headers: { 'X-Auth-Token': account.token },
  });
  return new Uint8Array(await res.arrayBuffer());
}

/** Area of a widget rectangle given in PDF points from the bottom-left. */
function expectedArea(page: number, x: number, y: number, w: number, h: number) {
  return { page, x: x / PAGE.width, y: (PAGE.height - y - h) / PAGE.height, w: w / PAGE.width, h: h / PAGE.height };
}

function expectArea(actual: Record<string, number>, expected: Record<string, number>) {
  expect(actual.page).toBe(expected.page);
  for (const key of ['x', 'y', 'w', 'h']) expect(actual[key]).toBeCloseTo(expected[key], 2); // within ~3 pt: pdf-lib widens widgets by their border
}

describe('AcroForm fields of an uploaded PDF', () => {
  it('become fields of each kind with their names, places, options and required flags', async () => {
    const a = await createAccount();
    const res = await upload(a, await formPdf());
    expect(res.status).toBe(201);
    const byName = Object.fromEntries(res.json.schema.map((f: { name: string }) => [f.name, f]));
    expect(Object.keys(byName).sort()).toEqual(['Applicant signature', 'agree', 'applicant.name', 'country', 'plan']);
    expect(byName['applicant.name']).toMatchObject({ type: 'text', required: true });
    expectArea(byName['applicant.name'].areas[0], expectedArea(1, 100, 700, 200, 20));
    expect(byName.agree.type).toBe('checkbox');
    expectArea(byName.agree.areas[0], expectedArea(1, 100, 650, 12, 12));
    expect(byName.plan.type).toBe('radio');
    expect(byName.plan.options.map((o: { value: string } | string) => (typeof o === 'string' ? o : o.value))).toEqual(['basic', 'premium']);
    expect(byName.plan.areas).toHaveLength(2);
    expectArea(byName.plan.areas[1], expectedArea(1, 200, 600, 12, 12));
    expect(byName.country.type).toBe('select');
    expect(byName.country.options.map((o: { value: string } | string) => (typeof o === 'string' ? o : o.value))).toEqual([
      'France',
      'Germany',
      'Spain',
    ]);
    expect(byName['Applicant signature'].type).toBe('signature');
    expectArea(byName['Applicant signature'].areas[0], expectedArea(2, 300, 100, 200, 50));
  });

  it('are removed from the stored document: no AcroForm, no widgets', async () => {
    const a = await createAccount();
    const res = await upload(a, await formPdf());
    const bytes = await stored(a, res.json.id, res.json.documents[0].uuid);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.catalog.has(PDFName.of('AcroForm'))).toBe(false);
    expect(latin1(bytes)).not.toContain('/Widget');
    expect((await checkPdf(bytes)).qpdf.code).toBe(0);
  });

  it('seal in a submission with the values inside the widgets’ areas', async () => {
    const a = await createAccount({ name: 'Form Co' });
    const template = await upload(a, await formPdf());
    const submission = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.json.id, submitters: [{ email: 'applicant@example.com' }] },
    });
    expect(submission.status).toBe(201);
    const values = {
      'applicant.name': 'Ada Formfiller',
      agree: true,
      plan: 'premium',
      country: 'Germany',
      'Applicant signature': 'Ada Formfiller',
    };
    const done = await api('PUT', `/api/submitters/${submission.json.submitters[0].id}`, {
      token: a.token,
      body: { values, completed: true },
    });
    expect(done.status).toBe(200);
    const scope = shardScope(env, await shardNumberOf(a.accountId));
    const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
      { id: 'seal-form', timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId: submission.json.id, shard: scope.shard } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
    const list = await api('GET', `/api/submissions/${submission.json.id}/documents`, { token: a.token });
    const res = await SELF.fetch(list.json.documents[0].download_url, { headers: { 'X-Auth-Token': a.token } });
    const words = placedWords((await checkPdf(new Uint8Array(await res.arrayBuffer()))).bbox);
    const within = (text: string, page: number, box: { x: number; y: number; w: number; h: number }) => {
      const word = words.find((w) => w.text === text && w.page === page);
      expect(word, `${text} on page ${page}`).toBeDefined();
      expect(word!.xMin).toBeGreaterThanOrEqual(box.x - 2);
      expect(word!.xMax).toBeLessThanOrEqual(box.x + box.w + 2);
      expect(word!.yMin).toBeGreaterThanOrEqual(PAGE.height - box.y - box.h - 2);
      expect(word!.yMax).toBeLessThanOrEqual(PAGE.height - box.y + 2);
    };
    within('Formfiller', 1, { x: 100, y: 700, w: 200, h: 20 });
    within('Germany', 1, { x: 100, y: 550, w: 150, h: 20 });
    within('Formfiller', 2, { x: 300, y: 100, w: 200, h: 50 });
  });
});

describe('a real-world AcroForm (grayhints example, texlive-latex-extra-doc)', () => {
  it('imports its eight fields with their names and kinds and removes the form', async () => {
    const a = await createAccount();
    const bytes = fromLatin1(atob(grayhintsBase64.replace(/^data:[^,]*,/, '')));
    const res = await upload(a, bytes);
    expect(res.status).toBe(201);
    const kinds = Object.fromEntries(res.json.schema.map((f: { name: string; type: string }) => [f.name, f.type]));
    expect(kinds).toEqual({
      'Name.First': 'text',
      'Name.Last': 'text',
      Datefield: 'text',
      'Integer.First': 'text',
      'Integer.Second': 'text',
      TotalNumbers: 'text',
      combo: 'select',
      Pet: 'text',
    });
    for (const field of res.json.schema) {
      const [area] = field.areas;
      expect(area.page).toBe(1);
      expect(area.w).toBeGreaterThan(0);
      expect(area.x + area.w).toBeLessThanOrEqual(1);
      expect(area.y + area.h).toBeLessThanOrEqual(1);
    }
    const kept = await stored(a, res.json.id, res.json.documents[0].uuid);
    expect((await PDFDocument.load(kept)).catalog.has(PDFName.of('AcroForm'))).toBe(false);
    expect((await checkPdf(kept)).qpdf.code).toBe(0);
  });
});

/** A one-page PDF whose AcroForm /Fields holds `fields` (PDF object syntax), as raw text. */
function rawForm(objects: string[], fields: string): Uint8Array {
  const parts = ['%PDF-1.7\n'];
  const offsets: number[] = [];
  const all = [
    `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields ${fields} >> >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    ...objects,
  ];
  let length = parts[0].length;
  all.forEach((body, i) => {
    offsets.push(length);
    const text = `${i + 1} 0 obj\n${body}\nendobj\n`;
    parts.push(text);
    length += text.length;
  });
  const xref = `xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(`${xref}trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Uint8Array.from(parts.join(''), (c) => c.charCodeAt(0));
}

describe('hostile AcroForms', () => {
  it('a field whose /Kids cycle back to itself is ignored, not a 500', async () => {
    const a = await createAccount();
    const res = await upload(
      a,
      rawForm(['<< /T (loop) /FT /Tx /Kids [5 0 R] >>', '<< /T (inner) /Parent 4 0 R /Kids [4 0 R] >>'], '[4 0 R]'),
    );
    expect(res.status).toBe(201);
    expect(res.json.schema).toEqual([]);
  });

  it('a widget without /Rect is skipped', async () => {
    const a = await createAccount();
    const res = await upload(a, rawForm(['<< /T (norect) /FT /Tx /Type /Annot /Subtype /Widget /P 3 0 R >>'], '[4 0 R]'));
    expect(res.status).toBe(201);
    expect(res.json.schema).toEqual([]);
  });

  it('more than 500 fields is a 422 saying how many can be imported', async () => {
    const a = await createAccount();
    const objects = Array.from({ length: 501 }, (_, i) => `<< /T (f${i}) /FT /Tx /Type /Annot /Subtype /Widget /Rect [0 0 10 10] >>`);
    const res = await upload(a, rawForm(objects, `[${objects.map((_, i) => `${i + 4} 0 R`).join(' ')}]`));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('documents[0] "form" has 501 form fields; at most 500 can be imported.');
  });
});
