// Text tags and AcroForm fields of uploaded PDFs become template fields (issue 19 point 4): placed where
// the tag or widget is, the tag hidden and the form removed in the stored file, sealed values inside.
import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from 'cloudflare:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { shardScope } from '../../src/db/shards';
import type { ShardStamp } from '../../src/lib/shard-queues';
import type { SealingQueueBody } from '../../src/env';
import { api, createAccount, type TestAccount } from '../helpers';
import { checkPdf, placedWords } from '../pdf-tools';
import { pdfFile, toBase64 } from '../fixtures/pdfs';
import { shardNumberOf } from '../submission-fixtures';
import { loadPdf } from '../../src/services/pdf/load-pdf';
import { readPageText } from '../../src/services/pdf/page-text';

// pdf.js is transformed and loaded on first use, which takes the test runner several seconds once.
beforeAll(async () => {
  const warm = await taggedPdf([[{ text: 'warm', x: 72, y: 700 }]]);
  await readPageText(warm, await loadPdf(warm));
}, 120_000);

const PAGE = { width: 612, height: 792 };
/** Tag places are read from text widths: a point or two either way is within the measure. */
const TOLERANCE = 3 / PAGE.width;

/** A two-page PDF: each line drawn with pdf-lib at (x, y from the bottom), size 12. */
async function taggedPdf(pages: { text: string; x: number; y: number }[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    for (const line of lines) page.drawText(line.text, { x: line.x, y: line.y, size: 12, font });
  }
  return pdf.save();
}

const TAGS = [
  [
    { text: 'Agreement between the parties', x: 72, y: 720 },
    { text: 'Name: {{Full Name;role=Buyer;required=true}}', x: 72, y: 600 },
  ],
  [
    { text: '{{Signed On;role=Buyer;type=date}}', x: 300, y: 400 },
    { text: '{{Sign;type=signature;role=Seller;width=200;height=50}}', x: 72, y: 200 },
  ],
];

async function upload(account: TestAccount, bytes: Uint8Array) {
  return api('POST', '/api/templates/pdf', { token: account.token, body: { documents: [{ name: 'tagged', file: toBase64(bytes) }] } });
}

async function storedDocument(account: TestAccount, templateId: string, uuid: string): Promise<Uint8Array> {
  const res = await SELF.fetch(`https://api.test/api/templates/${templateId}/documents/${uuid}`, {
    headers: { 'X-Auth-Token': account.token },
  });
  return new Uint8Array(await res.arrayBuffer());
}

describe('text tags in an uploaded PDF', () => {
  it('become fields with their roles, types and flags at the tag’s place on the right page', async () => {
    const a = await createAccount();
    const res = await upload(a, await taggedPdf(TAGS));
    expect(res.status).toBe(201);
    expect(res.json.submitters.map((r: { name: string }) => r.name)).toEqual(['Buyer', 'Seller']);
    const byName = Object.fromEntries(res.json.schema.map((f: { name: string }) => [f.name, f]));
    expect(Object.keys(byName)).toEqual(['Full Name', 'Signed On', 'Sign']);
    expect(byName['Full Name']).toMatchObject({ type: 'text', required: true });
    expect(byName['Signed On'].type).toBe('date');
    expect(byName.Sign.type).toBe('signature');

    // "Name: " is 6 characters of 45 before the tag; the tag's baseline is 600 pt up the page.
    const [name] = byName['Full Name'].areas;
    expect(name.page).toBe(1);
    expect(name.x).toBeGreaterThan(100 / PAGE.width);
    expect(name.x).toBeLessThan(125 / PAGE.width);
    expect(name.y + name.h).toBeCloseTo((PAGE.height - 600 + 3) / PAGE.height, 1);
    const [date] = byName['Signed On'].areas;
    expect(date.page).toBe(2);
    expect(Math.abs(date.x - 300 / PAGE.width)).toBeLessThan(TOLERANCE);
    expect(Math.abs(date.y - (PAGE.height - 400 - 12 * 0.95) / PAGE.height)).toBeLessThan(TOLERANCE * 2);
    const [sign] = byName.Sign.areas;
    expect(sign.page).toBe(2);
    // width/height hints give the size in points.
    expect(sign.w).toBeCloseTo(200 / PAGE.width, 3);
    expect(sign.h).toBeCloseTo(50 / PAGE.height, 3);
  });

  it('are gone from the stored document’s text while the rest stays', async () => {
    const a = await createAccount();
    const res = await upload(a, await taggedPdf(TAGS));
    const stored = await storedDocument(a, res.json.id, res.json.documents[0].uuid);
    const { text, qpdf } = await checkPdf(stored);
    expect(qpdf.code).toBe(0);
    expect(text.output).toContain('Agreement between the parties');
    expect(text.output).toContain('Name:');
    expect(text.output).not.toContain('{{');
    expect(text.output).not.toContain('Full Name');
  });

  it('are read from multipart uploads to POST /api/templates too', async () => {
    const a = await createAccount();
    const form = new FormData();
    form.append('files[]', pdfFile(await taggedPdf(TAGS), 'tagged.pdf'));
    const res = await SELF.fetch('https://api.test/api/templates', { method: 'POST', headers: { 'X-Auth-Token': a.token }, body: form });
    expect(res.status).toBe(201);
    const body = await res.json<{ schema: { name: string }[] }>();
    expect(body.schema.map((f) => f.name)).toEqual(['Full Name', 'Signed On', 'Sign']);
  });

  it('with an unknown type is a 422 naming the tag and its page', async () => {
    const a = await createAccount();
    const res = await upload(
      a,
      await taggedPdf([[{ text: 'ok', x: 72, y: 700 }], [{ text: '{{Birthday;type=birthday}}', x: 72, y: 700 }]]),
    );
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('page 2');
    expect(res.json.error).toContain('{{Birthday;type=birthday}}');
    expect(res.json.error).toContain('type "birthday" is not a field type');
  });

  it('with an unknown option is a 422 naming the option', async () => {
    const a = await createAccount();
    const res = await upload(a, await taggedPdf([[{ text: '{{Name;colour=red}}', x: 72, y: 700 }]]));
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('page 1');
    expect(res.json.error).toContain('"colour" is not a text tag option');
  });

  it('naming more roles than a template can have is a 422', async () => {
    const a = await createAccount();
    const lines = Array.from({ length: 51 }, (_, i) => ({
      text: `{{F${i};role=R${i}}}`,
      x: 72 + (i % 3) * 170,
      y: 760 - Math.floor(i / 3) * 40,
    }));
    const res = await upload(a, await taggedPdf([lines]));
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('{{F50;role=R50}}');
    expect(res.json.error).toContain('past the 50 roles');
  });
});

async function runSealingQueue(accountId: number, submissionId: number) {
  const scope = shardScope(env, await shardNumberOf(accountId));
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `seal-${submissionId}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard: scope.shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

describe('a submission from a tagged template', () => {
  it('seals with the values inside the tags’ areas', async () => {
    const a = await createAccount({ name: 'Tags Co' });
    const template = await upload(a, await taggedPdf(TAGS));
    expect(template.status).toBe(201);
    const submission = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: template.json.id,
        submitters: [
          { role: 'Buyer', email: 'buyer@example.com' },
          { role: 'Seller', email: 'seller@example.com' },
        ],
      },
    });
    expect(submission.status).toBe(201);
    const [buyer, seller] = submission.json.submitters;
    const done = (id: number, values: Record<string, unknown>) =>
      api('PUT', `/api/submitters/${id}`, { token: a.token, body: { values, completed: true } });
    expect((await done(buyer.id, { 'Full Name': 'Quentin Tagholder', 'Signed On': '2026-11-23' })).status).toBe(200);
    expect((await done(seller.id, { Sign: 'Sally Seller' })).status).toBe(200);
    expect((await runSealingQueue(a.accountId, submission.json.id)).explicitAcks).toHaveLength(1);

    const list = await api('GET', `/api/submissions/${submission.json.id}/documents`, { token: a.token });
    const res = await SELF.fetch(list.json.documents[0].download_url, { headers: { 'X-Auth-Token': a.token } });
    const { text, bbox } = await checkPdf(new Uint8Array(await res.arrayBuffer()));
    expect(text.output).not.toContain('{{');
    const words = placedWords(bbox);
    const schema = Object.fromEntries(template.json.schema.map((f: { name: string; areas: unknown[] }) => [f.name, f.areas[0]]));
    const inside = (word: string, area: { page: number; x: number; y: number; w: number; h: number }) => {
      const found = words.find((w) => w.text === word);
      expect(found, word).toBeDefined();
      const slack = 2;
      expect(found!.page).toBe(area.page);
      expect(found!.xMin).toBeGreaterThanOrEqual(area.x * PAGE.width - slack);
      expect(found!.xMax).toBeLessThanOrEqual((area.x + area.w) * PAGE.width + slack);
      expect(found!.yMin).toBeGreaterThanOrEqual(area.y * PAGE.height - slack);
      expect(found!.yMax).toBeLessThanOrEqual((area.y + area.h) * PAGE.height + slack);
    };
    inside('Tagholder', schema['Full Name']);
    inside('2026', schema['Signed On']);
    inside('Sally', schema.Sign);
  });
});

describe('files added or replaced through PUT /api/templates/{id}/documents', () => {
  const plain = () => taggedPdf([[{ text: 'Cover letter', x: 72, y: 700 }]]);

  async function plainTemplate(a: TestAccount) {
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: {
        documents: [{ name: 'cover', file: toBase64(await plain()) }],
        submitters: [{ name: 'Buyer' }],
        fields: [{ name: 'Cover initials', type: 'text', role: 'Buyer', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }] }],
      },
    });
    expect(res.status).toBe(201);
    return res.json;
  }

  it('bring an added file’s text tags as fields on it, adding the roles they name', async () => {
    const a = await createAccount();
    const created = await plainTemplate(a);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ name: 'tagged', file: toBase64(await taggedPdf(TAGS)) }] },
    });
    expect(res.status).toBe(200);
    const added = res.json.documents[1].uuid;
    expect(res.json.submitters.map((r: { name: string }) => r.name)).toEqual(['Buyer', 'Seller']);
    expect(res.json.schema.map((f: { name: string }) => f.name)).toEqual(['Cover initials', 'Full Name', 'Signed On', 'Sign']);
    for (const field of res.json.schema.slice(1)) expect(field.areas[0].attachment_uuid).toBe(added);
    const { text } = await checkPdf(await storedDocument(a, created.id, added));
    expect(text.output).toContain('Agreement between the parties');
    expect(text.output).not.toContain('{{');
  });

  it('bring a replacement file’s text tags beside the fields already on the document', async () => {
    const a = await createAccount();
    const created = await plainTemplate(a);
    const uuid = created.documents[0].uuid;
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ uuid, file: toBase64(await taggedPdf(TAGS)) }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.schema.map((f: { name: string }) => f.name)).toEqual(['Cover initials', 'Full Name', 'Signed On', 'Sign']);
    for (const field of res.json.schema) expect(field.areas[0].attachment_uuid).toBe(uuid);
  });

  it('bring an added file’s AcroForm fields and store it without the form', async () => {
    const a = await createAccount();
    const created = await plainTemplate(a);
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    pdf.getForm().createTextField('company').addToPage(page, { x: 100, y: 700, width: 200, height: 20 });
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ name: 'form', file: toBase64(await pdf.save()) }] },
    });
    expect(res.status).toBe(200);
    const company = res.json.schema.find((f: { name: string }) => f.name === 'company');
    expect(company).toMatchObject({ type: 'text' });
    expect(company.areas[0].attachment_uuid).toBe(res.json.documents[1].uuid);
    const stored = await PDFDocument.load(await storedDocument(a, created.id, res.json.documents[1].uuid));
    expect(stored.getForm().getFields()).toHaveLength(0);
  });

  it('answer 422 naming a bad tag in an added file, changing nothing', async () => {
    const a = await createAccount();
    const created = await plainTemplate(a);
    const res = await api('PUT', `/api/templates/${created.id}/documents`, {
      token: a.token,
      body: { documents: [{ name: 'bad', file: toBase64(await taggedPdf([[{ text: '{{Name;colour=red}}', x: 72, y: 700 }]])) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('"colour" is not a text tag option');
    const after = await api('GET', `/api/templates/${created.id}`, { token: a.token });
    expect(after.json.version).toBe(created.version);
    expect(after.json.documents).toHaveLength(1);
  });
});
