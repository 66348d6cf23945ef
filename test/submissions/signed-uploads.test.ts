// Uploads that already carry a signature (issue 28 › 4): a usage-rights signature (Reader Extensions,
// as on the IRS W-9) is dropped and the form becomes a template that is signed and sealed; a file
// certified by its author (DocMDP) is refused with a sentence and nothing is stored.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, PDFName } from 'pdf-lib';
import { shardScope } from '../../src/db/shards';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { pdfsigBlocks, signaturesIn } from '../signature-contents';
import { makeCertifiedPdf, makeUsageRightsForm } from '../fixtures/signed-pdfs';
import { toBase64 } from '../fixtures/pdfs';
import { shardNumberOf } from '../submission-fixtures';

const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

async function storedKeys(accountId: number): Promise<string[]> {
  return (await env.FILES.list({ prefix: `templates/${accountId}/` })).objects.map((o) => o.key);
}

describe('a fillable form carrying a usage-rights signature (/Perms /UR3)', () => {
  let owner: TestAccount;
  let form: Uint8Array;
  let template: { id: string; schema: { name: string; type: string }[]; documents: { uuid: string }[] };
  beforeAll(async () => {
    owner = await createAccount({ name: 'Forms Co' });
    expect((await api('PUT', '/api/settings/signature_level', { token: owner.token, body: { level: 'aes' } })).status).toBe(200);
    form = await makeUsageRightsForm();
    const res = await api('POST', '/api/templates/pdf', {
      token: owner.token,
      body: { name: 'W-9', submitters: [{ name: 'Payee' }], documents: [{ name: 'fw9.pdf', file: toBase64(form) }] },
    });
    expect(res.status).toBe(201);
    template = res.json;
  });

  it('carries a usage-rights signature pdfsig does not list, before upload', async () => {
    expect(signaturesIn(form)).toHaveLength(1);
    expect(latin1(form)).toContain('/UR3');
  });

  it('becomes a template with its form fields, stored without the usage-rights signature', async () => {
    expect(template.schema.map((f) => [f.name, f.type])).toEqual([
      ['Full name', 'text'],
      ['Certify', 'checkbox'],
    ]);
    const [key] = await storedKeys(owner.accountId);
    const stored = new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer());
    expect(latin1(stored)).not.toContain('/ByteRange');
    expect(latin1(stored)).not.toContain('/UR3');
    const pdf = await PDFDocument.load(stored);
    expect(pdf.catalog.has(PDFName.of('Perms'))).toBe(false);
  });

  it('is signed and sealed: pdfsig lists only our two signatures, both valid, and qpdf finds the file clean', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        submitters: [
          { role: 'Payee', name: 'Ada Payee', email: 'ada-payee@example.com', values: { 'Full name': 'Ada Payee', Certify: true } },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(
      (await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, { token: owner.token, body: { completed: true } })).status,
    ).toBe(200);
    const scope = shardScope(env, await shardNumberOf(owner.accountId));
    expect(await sealSubmission(scope.env, scope, res.json.id)).toBe('sealed');
    const shard = await shardOf(owner.accountId);
    const row = await shard
      .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ?')
      .bind(res.json.id)
      .first<{ r2_key: string }>();
    const sealed = new Uint8Array(await (await env.FILES.get(row!.r2_key))!.arrayBuffer());
    const { pdfsig, qpdf } = await checkPdf(sealed);
    expect(qpdf.output).toContain('No syntax or stream encoding errors found');
    const blocks = pdfsigBlocks(pdfsig.output);
    expect(blocks).toHaveLength(2);
    for (const block of blocks) {
      expect(block).toContain('Signature Type: ETSI.CAdES.detached');
      expect(block).toContain('Signature Validation: Signature is Valid.');
    }
    expect(blocks.map((b) => /Signer Certificate Common Name: (.*)/.exec(b)?.[1])).toEqual(['Ada Payee', `Forms Co (${env.SERVICE_NAME})`]);
    expect(signaturesIn(sealed).map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.CAdES.detached']);
  });
});

describe('a PDF certified by its author (DocMDP)', () => {
  it('is refused with 422 and a sentence when the certification allows no changes (P=1), storing nothing', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'certified', file: toBase64(await makeCertifiedPdf(1)) }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'documents[0] "certified" is certified by its author against any change (DocMDP P=1); filling it in would break that certification, so upload the document as it was before it was certified.',
    );
    expect(await storedKeys(a.accountId)).toEqual([]);
    expect((await api('GET', '/api/templates', { token: a.token })).json.data).toEqual([]);
  });

  it.each([
    2, 3,
  ] as const)('accepts a certification that allows form filling (P=%i), stored byte for byte (test/submissions/certified-forms.test.ts fills one)', async (p) => {
    const a = await createAccount();
    const certified = await makeCertifiedPdf(p);
    const res = await api('POST', '/api/templates/pdf', {
      token: a.token,
      body: { documents: [{ name: 'certified', file: toBase64(certified) }] },
    });
    expect(res.status).toBe(201);
    // The certification's own signature field is signed: it is no field of the template.
    expect(res.json.schema).toEqual([]);
    const keys = await storedKeys(a.accountId);
    expect(keys).toHaveLength(1);
    expect(new Uint8Array(await (await env.FILES.get(keys[0]))!.arrayBuffer())).toEqual(certified);
  });
});
