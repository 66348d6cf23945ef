import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { accountRow } from '../shard-fixtures';
import { accountSigningIdentity } from '../../src/services/certificates/account-identity';
import { sealDocument } from '../../src/services/pdf/seal';
import { addUser, api, createAccount, shardOf } from '../helpers';
import { checkPdf } from '../pdf-tools';

const { files: fixtures, password: PKCS12_PASSWORD } = inject('pkcs12');
const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

function multipart(file: string, password: string) {
  const form = new FormData();
  form.set('file', new File([bytesOf(file)], 'seal.p12', { type: 'application/x-pkcs12' }));
  form.set('password', password);
  return form;
}

async function sealWith(accountId: number) {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  return sealDocument({
    original: await pdf.save(),
    stamps: [],
    trail: {
      serviceName: 'Signing Service',
      documentName: 'Doc',
      templateName: 'T',
      submissionRef: 's',
      completedAt: null,
      signers: [],
      events: [],
    },
    signer: await accountSigningIdentity(env, createDb(await shardOf(accountId)), await accountRow(accountId)),
    signature: { name: 'Acme' },
  });
}

describe('GET /api/settings/certificate', () => {
  it('shows a self-signed certificate generated on first use, the same one afterwards', async () => {
    const a = await createAccount({ name: 'Acme Certs' });
    const first = await api('GET', '/api/settings/certificate', { token: a.token });
    expect(first.status).toBe(200);
    expect(first.json.certificate).toMatchObject({ source: 'generated', key_algorithm: 'RSA', chain_length: 0 });
    expect(first.json.certificate.subject).toContain('CN=Acme Certs (Signing Service)');
    expect(first.json.certificate.subject).toBe(first.json.certificate.issuer);
    expect(first.json.certificate.sha256_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(first.json.certificate.serial_number).toMatch(/^[0-9a-f]+$/);
    const again = await api('GET', '/api/settings/certificate', { token: a.token });
    expect(again.json.certificate.sha256_fingerprint).toBe(first.json.certificate.sha256_fingerprint);
  });

  it('answers 401 without a token and 403 without account:read', async () => {
    expect((await api('GET', '/api/settings/certificate')).status).toBe(401);
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('GET', '/api/settings/certificate', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:read');
  });
});

describe('PUT /api/settings/certificate', () => {
  it('accepts a PKCS#12 as a multipart file part and seals with it', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/certificate', { token: a.token, body: multipart(fixtures.good, PKCS12_PASSWORD) });
    expect(res.status).toBe(200);
    expect(res.json.certificate).toMatchObject({ source: 'uploaded', subject: 'CN=Uploaded Seal, O=Acme Uploads', key_algorithm: 'RSA' });
    expect((await api('GET', '/api/settings/certificate', { token: a.token })).json.certificate.source).toBe('uploaded');

    const { pdfsig } = await checkPdf((await sealWith(a.accountId)).bytes);
    expect(pdfsig.output).toContain('Signer Certificate Common Name: Uploaded Seal');
    expect(pdfsig.output).toContain('Signature is Valid.');
  });

  it('accepts JSON with the file as base64, an ECDSA key and its intermediate certificate', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/certificate', {
      token: a.token,
      body: { file: fixtures.ecChain, password: PKCS12_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.json.certificate).toMatchObject({
      source: 'uploaded',
      key_algorithm: 'P-256',
      chain_length: 1,
      issuer: 'CN=Acme Issuing CA',
    });
    const { pdfsig } = await checkPdf((await sealWith(a.accountId)).bytes);
    expect(pdfsig.output).toContain('Signer Certificate Common Name: Acme EC Seal');
    expect(pdfsig.output).toContain('Signature is Valid.');
  });

  it('stores the private key encrypted, not as PKCS#8', async () => {
    const a = await createAccount();
    await api('PUT', '/api/settings/certificate', { token: a.token, body: { file: fixtures.good, password: PKCS12_PASSWORD } });
    const row = await (await shardOf(a.accountId))
      .prepare("SELECT private_key FROM signing_identities WHERE account_id = ? AND source = 'uploaded'")
      .bind(a.accountId)
      .first<{ private_key: string }>();
    expect(row!.private_key).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    // A PKCS#8 RSA key's DER starts 30 82 …, base64 "MII"; the stored ciphertext part must not be one.
    expect(row!.private_key.split('.')[2].startsWith('MII')).toBe(false);
  });

  it.each([
    ['a wrong password', { file: fixtures.good, password: 'wrong' }, 'The password does not open this PKCS#12 file.'],
    [
      'a file that is not PKCS#12',
      { file: btoa('%PDF-1.7 not a key store'), password: 'x' },
      'The file is not a PKCS#12 (.p12 or .pfx) file',
    ],
    ['an expired certificate', { file: fixtures.expired, password: PKCS12_PASSWORD }, 'The certificate expired on'],
    [
      'a key that belongs to no certificate in the file',
      { file: fixtures.mismatch, password: PKCS12_PASSWORD },
      'does not belong to any certificate',
    ],
    ['a legacy RC2/3DES file', { file: fixtures.legacy, password: PKCS12_PASSWORD }, 'legacy algorithm'],
    ['a file that is not base64', { file: '***', password: 'x' }, 'file must be base64-encoded'],
  ])('refuses %s with a 422 sentence', async (_case, body, sentence) => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/certificate', { token: a.token, body });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain(sentence);
    expect((await api('GET', '/api/settings/certificate', { token: a.token })).json.certificate.source).toBe('generated');
  });

  it('answers 400 when the file or the password is missing', async () => {
    const a = await createAccount();
    expect((await api('PUT', '/api/settings/certificate', { token: a.token, body: { password: 'x' } })).json.error).toBe(
      'file is required.',
    );
    const res = await api('PUT', '/api/settings/certificate', { token: a.token, body: { file: fixtures.good } });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('password is required');
  });

  it('answers 403 without account:write and for non-admins', async () => {
    const a = await createAccount({ scopes: ['account:read'] });
    const scoped = await api('PUT', '/api/settings/certificate', {
      token: a.token,
      body: { file: fixtures.good, password: PKCS12_PASSWORD },
    });
    expect(scoped.status).toBe(403);
    expect(scoped.json.error).toBe('Insufficient scope. Required: account:write');
    const editor = await addUser(a.accountId, 'editor');
    const res = await api('PUT', '/api/settings/certificate', {
      token: editor.token,
      body: { file: fixtures.good, password: PKCS12_PASSWORD },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Only account admins can perform this operation.');
  });

  it('answers 401 without a token', async () => {
    expect((await api('PUT', '/api/settings/certificate', { body: { file: fixtures.good, password: PKCS12_PASSWORD } })).status).toBe(401);
  });
});

describe('DELETE /api/settings/certificate', () => {
  it('returns to the generated certificate', async () => {
    const a = await createAccount();
    const generated = (await api('GET', '/api/settings/certificate', { token: a.token })).json.certificate;
    await api('PUT', '/api/settings/certificate', { token: a.token, body: { file: fixtures.good, password: PKCS12_PASSWORD } });
    const res = await api('DELETE', '/api/settings/certificate', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.certificate).toMatchObject({ source: 'generated', sha256_fingerprint: generated.sha256_fingerprint });
    const { pdfsig } = await checkPdf((await sealWith(a.accountId)).bytes);
    expect(pdfsig.output).not.toContain('Uploaded Seal');
  });

  it('answers 404 when nothing was uploaded, and 403 for non-admins', async () => {
    const a = await createAccount();
    const res = await api('DELETE', '/api/settings/certificate', { token: a.token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Uploaded certificate not found.');
    const editor = await addUser(a.accountId, 'editor');
    expect((await api('DELETE', '/api/settings/certificate', { token: editor.token })).status).toBe(403);
  });
});
