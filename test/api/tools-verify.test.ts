import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { accountRow } from '../shard-fixtures';
import { accountSigningIdentity } from '../../src/services/certificates/account-identity';
import { sealDocument } from '../../src/services/pdf/seal';
import { xrefStreamDeclaring } from '../fixtures/hostile-pdfs';
import { latin1, makePdf, toBase64 } from '../fixtures/pdfs';
import { api, createAccount, shardOf } from '../helpers';

async function sealed(accountId: number, original?: Uint8Array) {
  const result = await sealDocument({
    original: original ?? (await makePdf(2)),
    stamps: [{ area: { page: 1, x: 0.1, y: 0.1, w: 0.4, h: 0.04 }, value: { kind: 'text', text: 'Ada Lovelace' } }],
    trail: {
      serviceName: 'Signing Service',
      documentName: 'Lease',
      templateName: 'Lease',
      submissionRef: 'sub_1',
      completedAt: null,
      signers: [],
      events: [],
    },
    signer: await accountSigningIdentity(env, createDb(await shardOf(accountId)), await accountRow(accountId)),
    signature: { name: 'Acme', reason: 'Completed submission' },
  });
  return result.bytes;
}

function pdfPart(bytes: Uint8Array) {
  const form = new FormData();
  form.set('file', new File([bytes], 'sealed.pdf', { type: 'application/pdf' }));
  return form;
}

describe('POST /api/tools/verify', () => {
  it('reports a sealed document as unmodified, with its signer, time, SubFilter and coverage', async () => {
    const a = await createAccount({ name: 'Verify Co' });
    const bytes = await sealed(a.accountId);
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: { file: toBase64(bytes) } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ unmodified: true, ours: false });
    expect(res.json.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(res.json.signatures).toHaveLength(1);
    const [signature] = res.json.signatures;
    expect(signature).toMatchObject({
      signer_common_name: 'Verify Co (Signing Service)',
      sub_filter: 'ETSI.CAdES.detached',
      covers_whole_document: true,
      integrity_valid: true,
      reason: 'Completed submission',
    });
    expect(signature.signer_subject).toBe('CN=Verify Co (Signing Service), O=Verify Co');
    expect(signature.field_name).toMatch(/^Seal /);
    expect(new Date(signature.signing_time).toISOString()).toBe(signature.signing_time);
    expect(signature.byte_range[0]).toBe(0);
    expect(signature.byte_range[2] + signature.byte_range[3]).toBe(bytes.length);
  });

  it('accepts the PDF as a multipart file part', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: pdfPart(await sealed(a.accountId)) });
    expect(res.status).toBe(200);
    expect(res.json.unmodified).toBe(true);
  });

  it('reports a changed byte as a failed integrity check', async () => {
    const a = await createAccount();
    const bytes = await sealed(a.accountId);
    // A digit of the signing time /M (D:2026…): the file still parses, the digest no longer matches.
    const at = latin1(bytes).lastIndexOf('/M (D:') + '/M (D:'.length + 3;
    bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: pdfPart(bytes) });
    expect(res.json.unmodified).toBe(false);
    expect(res.json.signatures[0]).toMatchObject({ integrity_valid: false, covers_whole_document: true });
  });

  it('reports content added after a signature as not covered by it', async () => {
    const a = await createAccount();
    const twice = await sealed(a.accountId, await sealed(a.accountId));
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: pdfPart(twice) });
    expect(res.json.signatures).toHaveLength(2);
    expect(res.json.signatures[0]).toMatchObject({ integrity_valid: true, covers_whole_document: false });
    expect(res.json.signatures[1]).toMatchObject({ integrity_valid: true, covers_whole_document: true });
    expect(res.json.unmodified).toBe(true);
  });

  it('reports an unsigned PDF as having no signatures', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: pdfPart(await makePdf(1)) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ unmodified: false, signatures: [] });
  });

  it('reads a PDF whose xref stream declares billions of rows it does not hold', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: pdfPart(xrefStreamDeclaring('[0 0 0]', '[0 2000000000]')) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ unmodified: false, signatures: [] });
  });

  it('refuses a file that is not a PDF with a 422 sentence, and a missing file with 400', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: { file: btoa('hello, not a pdf') } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('file is not a PDF file.');
    const missing = await api('POST', '/api/tools/verify', { token: a.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('file is required.');
  });

  it('answers 401 without a token and 403 without submissions:read', async () => {
    expect((await api('POST', '/api/tools/verify', { body: { file: 'JVBERi0=' } })).status).toBe(401);
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('POST', '/api/tools/verify', { token: a.token, body: { file: 'JVBERi0=' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submissions:read');
  });
});
