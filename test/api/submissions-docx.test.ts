// Submissions of DOCX templates: each submission's document is filled from its values and printed at
// creation, the signing page and the sealing job use it, and a variable without a value is a 422.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { generatedDocumentKey } from '../../src/services/submissions/generated-documents';
import { agreementDocx, buildDocx, pageBreak, paragraph } from '../docx-fixtures';
import { seal, storedPdf } from '../document-link-fixtures';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { downloadDocument, pageTexts } from '../rendering-fixtures';

async function docxTemplate(a: TestAccount, preferences: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/templates/docx', {
    token: a.token,
    body: {
      name: 'Agreement',
      documents: [{ name: 'agreement.docx', file: toBase64(agreementDocx) }],
      fields: [{ name: 'Initials', type: 'text', role: 'Client', areas: [{ page: 2, x: 0.1, y: 0.5, w: 0.3, h: 0.05 }] }],
      preferences,
    },
  });
  if (res.status !== 201) throw new Error(`POST /api/templates/docx answered ${res.status}: ${res.text}`);
  return res.json;
}

const values = { client_name: 'ACME Corp', discount: '15%', vip: false, item: 'Widget', price: '42.00' };

describe('submissions of a DOCX template', { timeout: 90_000 }, () => {
  it('seals the document filled with the values, leaving out the false branch', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, values, submitters: [{ role: 'Client', name: 'Jane Signer', email: 'jane@example.com' }] },
    });
    expect(res.status).toBe(201);
    const submitterId = res.json.submitters[0].id as number;
    const done = await api('PUT', `/api/submitters/${submitterId}`, {
      token: a.token,
      body: { values: { Initials: 'JS' }, completed: true },
    });
    expect(done.status).toBe(200);
    await seal(a, res.json.id);
    const pages = await pageTexts(await storedPdf(a, res.json.id, template.documents[0].id));
    const text = pages.join('\n');
    expect(text).toContain('Agreement with ACME Corp, signed by Jane Signer.');
    expect(text).toContain('A discount of 15% applies.');
    expect(text).toContain('STANDARD-TERMS apply.');
    expect(text).not.toContain('VIP-TERMS');
    expect(text).toMatch(/Widget\s+42\.00/);
    expect(text).not.toContain('[[');
    expect(pages[1]).toContain('SECOND-PAGE');
    expect(pages[1]).toContain('JS');
  });

  it('hides the text tags of a DOCX in each submission’s filled copy, as in the template', async () => {
    const a = await createAccount();
    const docx = buildDocx(
      paragraph('Offer for [[client_name]].') +
        paragraph('Sign here: {{Client Signature;role=Client;type=signature}}') +
        paragraph('END-OF-OFFER'),
    );
    const created = await api('POST', '/api/templates/docx', {
      token: a.token,
      body: { name: 'Tagged', documents: [{ name: 'tagged.docx', file: toBase64(docx) }] },
    });
    expect(created.status).toBe(201);
    expect(created.json.schema.map((f: { name: string; type: string }) => `${f.type}:${f.name}`)).toEqual(['signature:Client Signature']);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: created.json.id,
        values: { client_name: 'Tag Corp' },
        submitters: [{ role: 'Client', name: 'Tia Tag', email: 'tia@example.com' }],
      },
    });
    expect(res.status).toBe(201);
    const row = await (await shardOf(a.accountId))
      .prepare('SELECT r2_key FROM template_documents WHERE uuid = ?')
      .bind(created.json.documents[0].uuid)
      .first<{ r2_key: string }>();
    const copy = await env.FILES.get(generatedDocumentKey({ r2Key: row!.r2_key }, res.json.slug));
    expect(copy).not.toBeNull();
    const text = (await pageTexts(new Uint8Array(await copy!.arrayBuffer()))).join('\n');
    expect(text).toContain('Offer for Tag Corp.');
    expect(text).toContain('END-OF-OFFER');
    expect(text).not.toContain('{{');
    expect(text).not.toContain('Client Signature');
  });

  it('fills the built-in submission_id with the submission’s id, not its slug', async () => {
    const a = await createAccount();
    const docx = buildDocx(paragraph('Reference: SUB-[[submission_id]]-END for [[template_name]].'));
    const created = await api('POST', '/api/templates/docx', {
      token: a.token,
      body: { name: 'Numbered', documents: [{ name: 'numbered.docx', file: toBase64(docx) }] },
    });
    expect(created.status).toBe(201);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: created.json.id, submitters: [{ role: 'First Party', email: 'n@example.com' }] },
    });
    expect(res.status).toBe(201);
    const row = await (await shardOf(a.accountId))
      .prepare('SELECT r2_key FROM template_documents WHERE uuid = ?')
      .bind(created.json.documents[0].uuid)
      .first<{ r2_key: string }>();
    const copy = await env.FILES.get(generatedDocumentKey({ r2Key: row!.r2_key }, res.json.slug));
    const text = (await pageTexts(new Uint8Array(await copy!.arrayBuffer()))).join('\n');
    expect(text).toContain(`Reference: SUB-${res.json.id}-END for Numbered.`);
    expect(text).not.toContain(res.json.slug);
    // The id reserved for it is the one stored: the next submission gets a later one.
    const next = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: created.json.id, submitters: [{ role: 'First Party', email: 'n2@example.com' }] },
    });
    expect(next.json.id).toBeGreaterThan(res.json.id);
  });

  it('takes DOCX variables from a submitter’s values though no field of the role has their name', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: template.id,
        submitters: [
          {
            role: 'Client',
            name: 'Vera Values',
            email: 'vera@example.com',
            values: { ...values, client_name: 'Values Ltd', Initials: 'VV' },
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    // Only the field is stored as the submitter's value; the variables fill the document.
    expect(Object.values(res.json.submitters[0].values ?? {})).not.toContain('Values Ltd');
    await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, { token: a.token, body: { completed: true } });
    await seal(a, res.json.id);
    const text = (await pageTexts(await storedPdf(a, res.json.id, template.documents[0].id))).join('\n');
    expect(text).toContain('Agreement with Values Ltd, signed by Vera Values.');
    expect(text).toMatch(/Widget\s+42\.00/);
  });

  it('still refuses a submitter value that is neither a field of the role nor a DOCX variable', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, values, submitters: [{ role: 'Client', email: 'x@example.com', values: { colour: 'blue' } }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/values names "colour", which is not a field of the role "Client"/);
  });

  it('takes variables from metadata when values do not give them', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: template.id,
        values: { ...values, client_name: undefined, vip: true },
        metadata: { client_name: 'Meta Ltd' },
        submitters: [{ role: 'Client', email: 'm@example.com' }],
      },
    });
    expect(res.status).toBe(201);
    await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, {
      token: a.token,
      body: { values: { Initials: 'M' }, completed: true },
    });
    await seal(a, res.json.id);
    const text = (await pageTexts(await storedPdf(a, res.json.id, template.documents[0].id))).join('\n');
    // signer_name is a built-in: empty for a submitter invited by email alone, never a missing variable.
    expect(text).toContain('Agreement with Meta Ltd, signed by .');
    expect(text).toContain('VIP-TERMS apply.');
    expect(text).not.toContain('STANDARD-TERMS');
  });

  it('answers 422 naming the variables a submission leaves without a value', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, values: { client_name: 'ACME' }, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(
      /^values must give "discount", "item", "price", "vip": the template's DOCX document uses these variables/,
    );
  });

  it('accepts a submission without the variables the template marks optional', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a, { optional_variables: ['discount', 'vip', 'item', 'price'] });
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, values: { client_name: 'ACME' }, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    expect(res.status).toBe(201);
  });
});

describe('submissions of a DOCX template whose values change its length', { timeout: 90_000 }, () => {
  it('answers 422 when the filled document would have another page count than the template', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    const long = 'a very long item description '.repeat(400);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: template.id, values: { ...values, item: long }, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(
      /^the values given make "agreement" \d+ pages long instead of its template's 2; fields are placed on the template's pages/,
    );
  });
});

describe('a DOCX template with a header and a footer', { timeout: 90_000 }, () => {
  it('prints them, filled, on every page of the submission’s document', async () => {
    const a = await createAccount();
    const docx = buildDocx(paragraph('Body for [[client_name]].') + pageBreak + paragraph('Second page.'), {
      header: 'HEADER-MARK for [[client_name]]',
      footer: 'FOOTER-MARK & <co> [[template_name]]',
    });
    const created = await api('POST', '/api/templates/docx', {
      token: a.token,
      body: {
        name: 'Headed',
        documents: [{ name: 'headed.docx', file: toBase64(docx) }],
        fields: [{ name: 'Initials', type: 'text', role: 'Client', areas: [{ page: 1, x: 0.1, y: 0.5, w: 0.3, h: 0.05 }] }],
      },
    });
    expect(created.status).toBe(201);
    const templatePages = await pageTexts(await downloadDocument(a.token, created.json.id, created.json.documents[0].uuid));
    expect(templatePages[0]).toContain('HEADER-MARK for [[client_name]]');
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: created.json.id,
        values: { client_name: 'ACME Corp' },
        submitters: [{ role: 'Client', email: 'h@example.com' }],
      },
    });
    expect(res.status).toBe(201);
    await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, {
      token: a.token,
      body: { values: { Initials: 'H' }, completed: true },
    });
    await seal(a, res.json.id);
    const pages = await pageTexts(await storedPdf(a, res.json.id, created.json.documents[0].id));
    for (const page of pages.slice(0, 2)) {
      expect(page).toContain('HEADER-MARK for ACME Corp');
      expect(page).toContain('FOOTER-MARK & <co> Headed');
    }
  });
});

describe('copies of a DOCX template', { timeout: 90_000 }, () => {
  it('fills a clone’s submissions from their values, as the original’s', async () => {
    const a = await createAccount();
    const template = await docxTemplate(a);
    const clone = await api('POST', `/api/templates/${template.id}/clone`, { token: a.token, body: { name: 'Agreement copy' } });
    expect(clone.status).toBe(201);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: clone.json.id,
        values: { ...values, vip: true },
        submitters: [{ role: 'Client', name: 'Clone Signer', email: 'c@example.com' }],
      },
    });
    expect(res.status).toBe(201);
    await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, {
      token: a.token,
      body: { values: { Initials: 'CS' }, completed: true },
    });
    await seal(a, res.json.id);
    const text = (await pageTexts(await storedPdf(a, res.json.id, clone.json.documents[0].id))).join('\n');
    expect(text).toContain('Agreement with ACME Corp, signed by Clone Signer.');
    expect(text).toContain('VIP-TERMS apply.');
    expect(text).not.toContain('[[');
  });

  it('asks a merged template’s submissions for the variables of its DOCX documents', async () => {
    const a = await createAccount();
    const docx = await docxTemplate(a);
    const other = await api('POST', '/api/templates/docx', {
      token: a.token,
      body: { name: 'Letter', documents: [{ name: 'letter.docx', file: toBase64(buildDocx(paragraph('Dear [[addressee]],'))) }] },
    });
    expect(other.status).toBe(201);
    const merged = await api('POST', '/api/templates/merge', { token: a.token, body: { template_ids: [docx.id, other.json.id] } });
    expect(merged.status).toBe(201);
    const res = await api('POST', '/api/submissions', {
      token: a.token,
      body: { template_id: merged.json.id, values: { client_name: 'ACME' }, submitters: [{ role: 'Client', email: 'x@example.com' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/"addressee"/);
    expect(res.json.error).toMatch(/"discount", "item", "price", "vip"/);
  });
});

describe('a DOCX document added through PUT /api/templates/{id}/documents', { timeout: 90_000 }, () => {
  it('is printed for the template and filled per submission, as one given at creation', async () => {
    const a = await createAccount();
    const created = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: {
        documents: [{ name: 'cover', file: toBase64(await makePdf(1)) }],
        fields: [{ name: 'Initials', type: 'text', role: 'Client', areas: [{ page: 1, x: 0.1, y: 0.5, w: 0.3, h: 0.05 }] }],
      },
    });
    expect(created.status).toBe(201);
    const docx = buildDocx(paragraph('Annex for [[client_name]].'));
    const res = await api('PUT', `/api/templates/${created.json.id}/documents`, {
      token: a.token,
      body: { documents: [{ name: 'annex.docx', file: toBase64(docx) }] },
    });
    expect(res.status).toBe(200);
    const annex = res.json.documents[1];
    expect(annex.filename).toBe('annex');
    expect((await pageTexts(await downloadDocument(a.token, created.json.id, annex.uuid)))[0]).toContain('Annex for [[client_name]].');

    const submission = await api('POST', '/api/submissions', {
      token: a.token,
      body: {
        template_id: created.json.id,
        values: { client_name: 'ACME Corp' },
        submitters: [{ role: 'Client', email: 'annex@example.com' }],
      },
    });
    expect(submission.status).toBe(201);
    await api('PUT', `/api/submitters/${submission.json.submitters[0].id}`, {
      token: a.token,
      body: { values: { Initials: 'AC' }, completed: true },
    });
    await seal(a, submission.json.id);
    const text = (await pageTexts(await storedPdf(a, submission.json.id, annex.id))).join('\n');
    expect(text).toContain('Annex for ACME Corp.');
  });
});
