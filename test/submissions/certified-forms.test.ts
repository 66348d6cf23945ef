// A form its author certified with DocMDP P=2 (form filling and signing allowed; ISO 32000-1 § 12.8.2.2,
// Table 254) as a template (issue 33 › 6): its own form fields are the template's, values go in as field
// values with appearances, signatures into signature fields, each an incremental update; nothing is
// drawn on a page and no page is added, the audit trail being a file of its own. pdfsig finds the
// certification and ours valid, and a revision check proves the updates change only what P=2 allows.
import { env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFSignature, type PDFObject } from 'pdf-lib';
import { api, createAccount, type TestAccount } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { pdfsigBlocks } from '../signature-contents';
import { makeCertifiedPdf } from '../fixtures/signed-pdfs';
import { toBase64 } from '../fixtures/pdfs';
import { sealAndRead } from '../shard-fixtures';

const VALUES = { 'Buyer name': 'Ada Buyer', Agree: true, 'Buyer signature': 'Ada Buyer' };

async function uploadForm(owner: TestAccount, form: Uint8Array, fields?: unknown[]) {
  return api('POST', '/api/templates/pdf', {
    token: owner.token,
    body: {
      name: 'Order form',
      submitters: [{ name: 'Buyer' }],
      documents: [{ name: 'order-form.pdf', file: toBase64(form) }],
      ...(fields ? { fields } : {}),
    },
  });
}

/** One submission, its signer completed through the API with `VALUES`, sealed by the job; its id and sealed file. */
async function completeAndSeal(owner: TestAccount, templateId: number): Promise<{ id: number; sealed: Uint8Array }> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: { template_id: templateId, submitters: [{ role: 'Buyer', name: 'Ada Buyer', email: 'ada@example.com', values: VALUES }] },
  });
  expect(res.status).toBe(201);
  const done = await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, { token: owner.token, body: { completed: true } });
  expect(done.status).toBe(200);
  return { id: res.json.id, sealed: await sealAndRead(owner.accountId, res.json.id) };
}

/** pdfsig's blocks of signed fields (the form's empty signature field says it is not signed). */
const signedBlocks = (output: string) => pdfsigBlocks(output).filter((b) => !b.includes('The signature form field is not signed'));

const commonName = (block: string) => /Signer Certificate Common Name: (.*)/.exec(block)?.[1];

const startsWith = (bytes: Uint8Array, prefix: Uint8Array) =>
  bytes.length > prefix.length && bytes.subarray(0, prefix.length).every((b, i) => b === prefix[i]);

const load = (bytes: Uint8Array) => PDFDocument.load(bytes, { updateMetadata: false });

/** Keys whose values differ between two dictionaries (compared as written). */
function changedKeys(before: PDFDict, after: PDFDict): string[] {
  const keys = new Set([...before.keys(), ...after.keys()].map((k) => k.asString()));
  return [...keys].filter((k) => String(before.get(PDFName.of(k.slice(1)))) !== String(after.get(PDFName.of(k.slice(1)))));
}

const isSignatureWidget = (object: PDFObject | undefined) =>
  object instanceof PDFDict && object.get(PDFName.of('FT')) === PDFName.of('Sig');

/**
 * What the updates after the certified revision changed, object by object, against ISO 32000-1
 * Table 254's P=2 (form filling, signing): every problem found, as sentences. Allowed: new objects
 * other than pages; the catalog's /AcroForm and /DSS; the AcroForm; a field or widget's /V, /AP and
 * /AS; a page's /Annots gaining signature widgets only. Nothing else may differ.
 */
async function disallowedChanges(certified: Uint8Array, sealed: Uint8Array): Promise<string[]> {
  const [before, after] = await Promise.all([load(certified), load(sealed)]);
  const problems: string[] = [];
  if (after.getPageCount() !== before.getPageCount()) problems.push(`page count ${before.getPageCount()} → ${after.getPageCount()}`);
  const pages = new Map(before.getPages().map((p) => [p.ref.objectNumber, p]));
  const acroForm = before.catalog.get(PDFName.of('AcroForm'));
  const root = before.context.trailerInfo.Root as PDFRef;
  for (const [ref, now] of after.context.enumerateIndirectObjects()) {
    const was = before.context.lookup(ref);
    if (was === undefined) {
      if (now instanceof PDFDict && [PDFName.of('Page'), PDFName.of('Pages')].includes(now.get(PDFName.of('Type')) as PDFName))
        problems.push(`new page object ${ref}`);
      continue;
    }
    if (String(was) === String(now)) continue;
    const n = ref.objectNumber;
    if (acroForm instanceof PDFRef && n === acroForm.objectNumber) continue;
    if (!(was instanceof PDFDict) || !(now instanceof PDFDict)) {
      problems.push(`object ${ref} changed (${was.constructor.name})`);
      continue;
    }
    const keys = changedKeys(was, now);
    if (n === root.objectNumber) {
      const other = keys.filter((k) => k !== '/AcroForm' && k !== '/DSS');
      if (other.length) problems.push(`catalog keys ${other.join(', ')} changed`);
    } else if (pages.has(n)) {
      const other = keys.filter((k) => k !== '/Annots');
      if (other.length) problems.push(`page ${ref} keys ${other.join(', ')} changed`);
      const old = new Set(((was.lookup(PDFName.of('Annots')) as PDFArray | undefined)?.asArray() ?? []).map(String));
      const added = ((now.lookup(PDFName.of('Annots')) as PDFArray | undefined)?.asArray() ?? []).filter((a) => !old.has(String(a)));
      if (old.size && [...old].some((a) => !(now.lookup(PDFName.of('Annots')) as PDFArray).asArray().map(String).includes(a)))
        problems.push(`page ${ref} lost annotations`);
      for (const a of added)
        if (!isSignatureWidget(after.context.lookup(a))) problems.push(`page ${ref} gained a non-signature annotation ${a}`);
    } else {
      const other = keys.filter((k) => !['/V', '/AP', '/AS'].includes(k));
      if (other.length) problems.push(`object ${ref} keys ${other.join(', ')} changed`);
    }
  }
  return problems;
}

describe('a form certified for form filling and signing (DocMDP P=2), filled and signed at aes', () => {
  let owner: TestAccount;
  let form: Uint8Array;
  let template: { id: number; schema: { name: string; type: string }[] };
  let sealed: Uint8Array;
  let submissionId: number;
  beforeAll(async () => {
    owner = await createAccount({ name: 'Certified Co' });
    expect((await api('PUT', '/api/settings/signature_level', { token: owner.token, body: { level: 'aes' } })).status).toBe(200);
    form = await makeCertifiedPdf(2, { form: true });
    const res = await uploadForm(owner, form);
    expect(res.status).toBe(201);
    template = res.json;
    ({ id: submissionId, sealed } = await completeAndSeal(owner, template.id));
  });

  it('carries a real certification: /Perms /DocMDP naming a signature whose /Reference is the DocMDP transform with P=2', async () => {
    const catalog = (await load(form)).catalog;
    const signature = (catalog.lookup(PDFName.of('Perms')) as PDFDict).lookup(PDFName.of('DocMDP')) as PDFDict;
    const transform = (signature.lookup(PDFName.of('Reference')) as PDFArray).lookup(0) as PDFDict;
    expect(String(transform.get(PDFName.of('TransformMethod')))).toBe('/DocMDP');
    expect(String((transform.lookup(PDFName.of('TransformParams')) as PDFDict).get(PDFName.of('P')))).toBe('2');
    const blocks = signedBlocks((await checkPdf(form)).pdfsig.output);
    expect(blocks.map(commonName)).toEqual(['Certifying Author']);
    expect(blocks[0]).toContain('Signature Validation: Signature is Valid.');
  });

  it('becomes a template whose fields are the form’s own, its certification signature not among them', () => {
    expect(template.schema.map((f) => [f.name, f.type])).toEqual([
      ['Buyer name', 'text'],
      ['Agree', 'checkbox'],
      ['Buyer signature', 'signature'],
    ]);
  });

  it('is sealed as updates after the certified bytes, pdfsig listing the certification, the signer and the seal, all valid', async () => {
    expect(startsWith(sealed, form)).toBe(true);
    const check = await checkPdf(sealed);
    // In the form's field order: the buyer's signature field, the certification's, then the seal's.
    const blocks = signedBlocks(check.pdfsig.output);
    expect(blocks.map(commonName)).toEqual(['Ada Buyer', 'Certifying Author', `Certified Co (${env.SERVICE_NAME})`]);
    for (const block of blocks) expect(block).toContain('Signature Validation: Signature is Valid.');
    expect(check.pdfsig.output).not.toMatch(/Digest Mismatch|Signature is Invalid/);
    expect(check.qpdf.output).toContain('No syntax or stream encoding errors found');
  });

  it('changes only what P=2 allows: field values, appearances and signatures, no page content, no new page', async () => {
    expect(await disallowedChanges(form, sealed)).toEqual([]);
    const [before, after] = await Promise.all([load(form), load(sealed)]);
    expect(String(after.getPage(0).node.get(PDFName.of('Contents')))).toBe(String(before.getPage(0).node.get(PDFName.of('Contents'))));
  });

  it('holds the values as the form’s field values and the signer’s signature in the form’s signature field', async () => {
    const filled = (await load(sealed)).getForm();
    expect(filled.getTextField('Buyer name').getText()).toBe('Ada Buyer');
    expect(filled.getCheckBox('Agree').isChecked()).toBe(true);
    const signatureField = filled.getField('Buyer signature') as PDFSignature;
    const value = signatureField.acroField.dict.lookup(PDFName.of('V'));
    expect(value).toBeInstanceOf(PDFDict);
    expect(String((value as PDFDict).get(PDFName.of('Name')))).toContain('Ada Buyer');
    expect(signatureField.acroField.getWidgets()[0].getAppearances()?.normal).toBeDefined();
  });

  it('keeps its audit trail outside the document: a sealed file of its own after it in the downloads, naming the sealed SHA-256', async () => {
    const docs = await api('GET', `/api/submissions/${submissionId}/documents`, { token: owner.token });
    expect(docs.json.documents).toHaveLength(1);
    const zip = await SELF.fetch(`https://api.test/api/submissions/${submissionId}/documents/combined?separate=true`, {
      headers: { 'X-Auth-Token': owner.token },
    });
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['order-form.pdf', 'order-form audit trail.pdf']);
    expect(files['order-form.pdf']).toEqual(sealed);
    const trail = await checkPdf(files['order-form audit trail.pdf']);
    const [block] = pdfsigBlocks(trail.pdfsig.output);
    expect(block).toContain('Signature Validation: Signature is Valid.');
    const text = trail.text.output.replace(/\s+/g, ' ');
    expect(text).toContain('certification kept');
    expect(text).toContain(docs.json.documents[0].sha256);
  });
});

describe('the same form certified at P=3 (annotations too), at ses', () => {
  it('has the account sign the filled signature field and seal, the certification still valid and the changes within even P=2', async () => {
    const owner = await createAccount({ name: 'Simple Co' });
    const form = await makeCertifiedPdf(3, { form: true });
    const res = await uploadForm(owner, form);
    expect(res.status).toBe(201);
    const { sealed } = await completeAndSeal(owner, res.json.id);
    const blocks = signedBlocks((await checkPdf(sealed)).pdfsig.output);
    expect(blocks.map(commonName)).toEqual([`Simple Co (${env.SERVICE_NAME})`, 'Certifying Author', `Simple Co (${env.SERVICE_NAME})`]);
    for (const block of blocks) expect(block).toContain('Signature Validation: Signature is Valid.');
    expect(await disallowedChanges(form, sealed)).toEqual([]);
  });
});

describe('fields that are not the certified form’s own', () => {
  it('refuses a field the form does not have, with a sentence naming its fields, storing nothing', async () => {
    const owner = await createAccount();
    const res = await uploadForm(owner, await makeCertifiedPdf(2, { form: true }), [
      { name: 'Notes', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.5, w: 0.3, h: 0.04 }] },
    ]);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[0] "Notes" is not one of the document\'s own form fields; the document is certified by its author (DocMDP P=2), which allows only filling in those fields and signing, so no other field can be placed on it (its fields: "Buyer name", "Agree", "Buyer signature").',
    );
    expect((await env.FILES.list({ prefix: `templates/${owner.accountId}/` })).objects).toEqual([]);
  });

  it('refuses a form field given another type, and a field added later through PUT', async () => {
    const owner = await createAccount();
    const wrong = await uploadForm(owner, await makeCertifiedPdf(2, { form: true }), [
      { name: 'Agree', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.5, w: 0.3, h: 0.04 }] },
    ]);
    expect(wrong.status).toBe(422);
    expect(wrong.json.error).toMatch(
      /^fields\[0\] "Agree" is a text field, but the document's own form field "Agree" is a checkbox field;/,
    );

    const created = await uploadForm(owner, await makeCertifiedPdf(2, { form: true }));
    expect(created.status).toBe(201);
    const fields = [
      ...created.json.schema,
      { name: 'Stamp', type: 'stamp', role: 'Buyer', areas: [{ page: 1, x: 0.5, y: 0.5, w: 0.2, h: 0.1 }] },
    ];
    const put = await api('PUT', `/api/templates/${created.json.id}`, { token: owner.token, body: { fields } });
    expect(put.status).toBe(422);
    expect(put.json.error).toMatch(/^fields\[3\] "Stamp" is not one of the document's own form fields;/);
    const after = await api('GET', `/api/templates/${created.json.id}`, { token: owner.token });
    expect(after.json.schema).toHaveLength(3);
  });

  it('still refuses a certification that allows no change (P=1)', async () => {
    const res = await uploadForm(await createAccount(), await makeCertifiedPdf(1, { form: true }));
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/is certified by its author against any change \(DocMDP P=1\)/);
  });
});
