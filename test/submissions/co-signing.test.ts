// Co-signing a PDF another party signed already (issue 33 › 6): a contract with an approval signature
// becomes a template, our values and signatures are appended as incremental updates after the bytes as
// uploaded, and pdfsig finds the earlier signature and ours all valid in the sealed file.
import { env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, PDFName } from 'pdf-lib';
import { generateSigningIdentity } from '../../src/services/pdf/certificate';
import { sealDocument } from '../../src/services/pdf/seal';
import { timestamperFor } from '../../src/services/pdf/timestamp';
import { inspectSignatures } from '../../src/services/pdf/verify';
import { api, createAccount, type TestAccount } from '../helpers';
import { checkPdf, type PdfCheck } from '../pdf-tools';
import { pdfsigBlocks } from '../signature-contents';
import { appendApprovalSignature, makeApprovalSignedContract, makeLockedContract, makeUsageRightsForm } from '../fixtures/signed-pdfs';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { sealAndRead } from '../shard-fixtures';

const FIELDS = [
  { name: 'Buyer name', type: 'text', required: true, areas: [{ page: 2, x: 0.1, y: 0.3, w: 0.4, h: 0.04 }] },
  { name: 'Buyer signature', type: 'signature', required: true, areas: [{ page: 2, x: 0.1, y: 0.4, w: 0.4, h: 0.08 }] },
];

async function storedTemplateBytes(accountId: number): Promise<Uint8Array[]> {
  const { objects } = await env.FILES.list({ prefix: `templates/${accountId}/` });
  return Promise.all(objects.map(async (o) => new Uint8Array(await (await env.FILES.get(o.key))!.arrayBuffer())));
}

/** A template of the contract (and `others` after it, then without fields) for one role, Buyer. */
async function uploadContract(owner: TestAccount, contract: Uint8Array, others: { name: string; file: string }[] = []) {
  return api('POST', '/api/templates/pdf', {
    token: owner.token,
    body: {
      name: 'Supply Agreement',
      submitters: [{ name: 'Buyer' }],
      documents: [{ name: 'supply-agreement.pdf', file: toBase64(contract) }, ...others],
      ...(others.length ? {} : { fields: FIELDS }),
    },
  });
}

/** One submission of the template, its signer completed through the API, sealed by the job. */
async function completeAndSeal(owner: TestAccount, templateId: number): Promise<Uint8Array> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: templateId,
      submitters: [
        {
          role: 'Buyer',
          name: 'Ada Buyer',
          email: 'ada-buyer@example.com',
          values: { 'Buyer name': 'Ada Buyer', 'Buyer signature': 'Ada Buyer' },
        },
      ],
    },
  });
  expect(res.status).toBe(201);
  const done = await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, { token: owner.token, body: { completed: true } });
  expect(done.status).toBe(200);
  return sealAndRead(owner.accountId, res.json.id);
}

const commonName = (block: string) => /Signer Certificate Common Name: (.*)/.exec(block)?.[1];

/**
 * Every CMS signature pdfsig lists is valid (pdfsig 22.12 cannot verify an ETSI.RFC3161 document
 * timestamp: "Signature Type: unknown"; the verifier checks those); qpdf finds the file clean.
 */
function validBlocks(check: PdfCheck): string[] {
  const blocks = pdfsigBlocks(check.pdfsig.output);
  for (const block of blocks.filter((b) => !b.includes('Signature Type: unknown')))
    expect(block).toContain('Signature Validation: Signature is Valid.');
  expect(check.pdfsig.output).not.toMatch(/Digest Mismatch|Signature is Invalid/);
  expect(check.qpdf.output).toContain('No syntax or stream encoding errors found');
  return blocks;
}

const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

const startsWith = (bytes: Uint8Array, prefix: Uint8Array) =>
  bytes.length > prefix.length && bytes.subarray(0, prefix.length).every((b, i) => b === prefix[i]);

describe('a contract another party signed (approval signature, one revision, xref table)', () => {
  let owner: TestAccount;
  let contract: Uint8Array;
  let template: { id: number };
  let sealed: Uint8Array;
  beforeAll(async () => {
    owner = await createAccount({ name: 'Buyer Co' });
    expect((await api('PUT', '/api/settings/signature_level', { token: owner.token, body: { level: 'aes' } })).status).toBe(200);
    contract = await makeApprovalSignedContract('whole');
    const res = await uploadContract(owner, contract);
    expect(res.status).toBe(201);
    template = res.json;
    sealed = await completeAndSeal(owner, template.id);
  });

  it('carries a signature pdfsig finds valid over the whole file before upload', async () => {
    const [block, ...others] = validBlocks(await checkPdf(contract));
    expect(others).toEqual([]);
    expect(commonName(block)).toBe('Party A');
    expect(block).toContain('Total document signed');
  });

  it('becomes a template whose stored PDF is the upload byte for byte', async () => {
    const stored = await storedTemplateBytes(owner.accountId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toEqual(contract);
  });

  it('is sealed as updates appended after the uploaded bytes, which are kept byte for byte', () => {
    expect(startsWith(sealed, contract)).toBe(true);
  });

  it('has pdfsig list the earlier signature, the signer’s and the seal, all valid, and qpdf find the file clean', async () => {
    const check = await checkPdf(sealed);
    const blocks = validBlocks(check);
    expect(blocks.map(commonName)).toEqual(['Party A', 'Ada Buyer', `Buyer Co (${env.SERVICE_NAME})`]);
    // The earlier signature covers its revision (the file as uploaded); the seal covers everything.
    expect(blocks[0]).toContain('Not total document signed');
    expect(blocks[0]).toContain(`Signed Ranges: [0 - `);
    expect(blocks[2]).toContain('Total document signed');
    expect(check.text.output).toContain('Ada Buyer');
  });

  it('says on its audit page that the upload came signed and that those signatures were kept valid', async () => {
    const text = (await checkPdf(sealed)).text.output.replace(/\s+/g, ' ');
    expect(text).toContain('earlier signatures kept');
    expect(text).toContain('The document as uploaded carries a signature made elsewhere.');
  });

  it('has the service’s verifier find every signature intact, the earlier one over exactly the uploaded bytes', async () => {
    const reports = await inspectSignatures(sealed);
    expect(reports.map((r) => [r.signer_common_name, r.integrity_valid])).toEqual([
      ['Party A', true],
      ['Ada Buyer', true],
      [`Buyer Co (${env.SERVICE_NAME})`, true],
    ]);
    const [, , c, d] = reports[0].byte_range;
    expect(c + d).toBe(contract.length);
  });
});

describe('a contract signed in an incremental update over cross-reference streams', () => {
  let contract: Uint8Array;
  beforeAll(async () => {
    contract = await makeApprovalSignedContract('appended');
  });

  it('is co-signed at ses: pdfsig lists the earlier signature and the seal, both valid, qpdf finds it clean', async () => {
    const owner = await createAccount({ name: 'Stream Co' });
    const res = await uploadContract(owner, contract);
    expect(res.status).toBe(201);
    const sealed = await completeAndSeal(owner, res.json.id);
    expect(startsWith(sealed, contract)).toBe(true);
    const blocks = validBlocks(await checkPdf(sealed));
    expect(blocks.map(commonName)).toEqual(['Party A', `Stream Co (${env.SERVICE_NAME})`]);
  });

  it('keeps the earlier signature valid beside a B-LTA seal and its document timestamp', async () => {
    const signer = await generateSigningIdentity({ commonName: 'Acme Seal', organization: 'Acme Inc.' });
    const { bytes } = await sealDocument({
      original: contract,
      stamps: [{ area: { page: 2, x: 0.1, y: 0.3, w: 0.4, h: 0.04 }, value: { kind: 'text', text: 'Ada Buyer' } }],
      trail: {
        serviceName: 'Signing Service',
        documentName: 'Supply.pdf',
        templateName: 'Supply',
        submissionRef: 'sub_t',
        completedAt: null,
        signers: [],
        events: [],
      },
      signer,
      signature: { name: 'Acme Inc.' },
      timestamper: timestamperFor([`${env.TEST_TSA_URL}/tsa`]),
    });
    expect(startsWith(bytes, contract)).toBe(true);
    const blocks = validBlocks(await checkPdf(bytes));
    expect(blocks.map(commonName)).toEqual(['Party A', 'Acme Seal', 'Test TSA']);
    expect((await inspectSignatures(bytes)).map((r) => r.integrity_valid)).toEqual([true, true, true]);
  });
});

describe('a Reader-extended form (/Perms /UR3) one party signed', () => {
  it('is co-signed with the usage rights dropped in our update, the earlier signature and the seal valid', async () => {
    const form = await appendApprovalSignature(await makeUsageRightsForm());
    expect(latin1(form)).toContain('/UR3');
    const owner = await createAccount({ name: 'Forms Co' });
    const res = await api('POST', '/api/templates/pdf', {
      token: owner.token,
      body: {
        name: 'Form',
        submitters: [{ name: 'Buyer' }],
        documents: [{ name: 'form.pdf', file: toBase64(form) }],
        fields: FIELDS.map((f) => ({ ...f, areas: f.areas.map((a) => ({ ...a, page: 1 })) })),
      },
    });
    expect(res.status).toBe(201);
    expect(await storedTemplateBytes(owner.accountId)).toEqual([form]);
    const sealed = await completeAndSeal(owner, res.json.id);
    expect(startsWith(sealed, form)).toBe(true);
    // The newest catalog names no usage rights, so viewers offer no voided extended features.
    const catalog = (await PDFDocument.load(sealed, { updateMetadata: false })).catalog;
    expect(catalog.has(PDFName.of('Perms'))).toBe(false);
    const blocks = validBlocks(await checkPdf(sealed));
    expect(blocks.map(commonName)).toEqual(['Party A', `Forms Co (${env.SERVICE_NAME})`]);
  });
});

describe('a contract whose signature locks its form fields (FieldMDP without a permission)', () => {
  it('is co-signed: the lock binds the fields, which our update leaves alone', async () => {
    const contract = await makeLockedContract();
    const owner = await createAccount({ name: 'Lock Co' });
    const res = await uploadContract(owner, contract);
    expect(res.status).toBe(201);
    const sealed = await completeAndSeal(owner, res.json.id);
    expect(startsWith(sealed, contract)).toBe(true);
    expect(validBlocks(await checkPdf(sealed)).map(commonName)).toEqual(['Party A', `Lock Co (${env.SERVICE_NAME})`]);
  });
});

describe('a template joining a signed contract and another document', () => {
  it('downloads as one PDF without the contract’s signature field, whose byte ranges describe the contract alone', async () => {
    const owner = await createAccount();
    const annex = { name: 'annex.pdf', file: toBase64(await makePdf(1)) };
    const res = await uploadContract(owner, await makeApprovalSignedContract('whole'), [annex]);
    expect(res.status).toBe(201);
    const download = await SELF.fetch(`https://api.test/api/templates/${res.json.id}/download`, {
      headers: { 'X-Auth-Token': owner.token },
    });
    expect(download.status).toBe(200);
    const check = await checkPdf(new Uint8Array(await download.arrayBuffer()));
    expect(pdfsigBlocks(check.pdfsig.output)).toEqual([]);
    expect(check.qpdf.output).toContain('No syntax or stream encoding errors found');
    expect(check.text.output).toContain('Supply Agreement between Party A and Party B');
  });
});

/** The upload is refused with `sentence` and nothing is stored. */
async function expectRefused(contract: Uint8Array, sentence: string): Promise<void> {
  const owner = await createAccount();
  const res = await uploadContract(owner, contract);
  expect(res.status).toBe(422);
  expect(res.json.error).toBe(sentence);
  expect(await storedTemplateBytes(owner.accountId)).toEqual([]);
}

describe('signed uploads that cannot be co-signed', () => {
  it('refuses a signed file whose cross-reference chain is broken, since values could not be appended to it', async () => {
    const contract = await makeApprovalSignedContract('whole');
    const text = latin1(contract);
    const at = text.lastIndexOf('startxref') + 'startxref\n'.length;
    const digits = /^\d+/.exec(text.slice(at))![0];
    const broken = contract.slice();
    broken.set(new TextEncoder().encode('0'.repeat(digits.length)), at); // startxref 0: the header, no xref
    await expectRefused(
      broken,
      'documents[0] "supply-agreement.pdf" is digitally signed but its cross-reference data is damaged, so values cannot be added after the signature without invalidating it; ask the signer for an undamaged copy.',
    );
  });

  it('refuses a file whose signature locks it against any change (PDF 2.0 FieldMDP P=1), storing nothing', async () => {
    await expectRefused(
      await makeLockedContract(1),
      'documents[0] "supply-agreement.pdf" is signed with a lock that allows no further change (FieldMDP P=1); the values are drawn onto its pages, which that lock forbids, so upload the document as it was before it was signed.',
    );
  });

  it('refuses a file whose signature lock allows only form filling and signing (FieldMDP P=2)', async () => {
    const res = await uploadContract(await createAccount(), await makeLockedContract(2));
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/is signed with a lock that allows only form filling and signing \(FieldMDP P=2\)/);
  });
});
