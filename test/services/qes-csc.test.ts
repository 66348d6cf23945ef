// The CSC API v2 client, the signer's authorization round trip and the CMS from signHash, all against
// the local CSC imitation (test/global-setup/csc-imitation.mjs), with pdfsig judging the signed PDFs.
import { env } from 'cloudflare:test';
import * as pkijs from 'pkijs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { signPdf } from '../../src/services/pdf/pades';
import { timestamperFor } from '../../src/services/pdf/timestamp';
import {
  authorizationCode,
  beginAuthorization,
  newPkcePair,
  signerState,
  stateBelongsTo,
  STATE_TTL_SECONDS,
} from '../../src/services/qes/authorization';
import { CSC_OID, CscClient } from '../../src/services/qes/csc-client';
import { QesProviderError } from '../../src/services/qes/provider-error';
import { cmsFromSignHash, providerSigner, signedAttributesHash } from '../../src/services/qes/remote-signature';
import { answerConsent, CSC_CLIENT_ID, imitationCredentials, imitationRequests, imitationSwitch } from '../csc-fixtures';
import { checkPdf } from '../pdf-tools';
import { signaturesIn, signatureTimestampOf, verifyTimestampToken } from '../signature-contents';
import { translatorFor } from '../../src/lib/i18n/catalogs';

const english = translatorFor('en');

const REDIRECT = 'https://api.test/s/abc/qes/callback';
const SIGNER = 'submitter:42';

const clientFor = (credentials: ReturnType<typeof imitationCredentials>) => new CscClient(credentials, env);
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));

/** The whole signer trip: authorize these hashes, come back, exchange the code; the credential token. */
async function authorize(client: CscClient, hashes: Uint8Array[], decision: 'approve' | 'deny' = 'approve'): Promise<string> {
  const { url, codeVerifier } = await beginAuthorization(client, env.ENCRYPTION_KEY, { signer: SIGNER, redirectUri: REDIRECT, hashes });
  const back = await answerConsent(url, decision);
  const code = await authorizationCode(env.ENCRYPTION_KEY, back, SIGNER);
  return (await client.exchangeCode({ code, codeVerifier, redirectUri: REDIRECT })).accessToken;
}

async function caught(promise: Promise<unknown>): Promise<QesProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof QesProviderError)) throw new Error(`expected a QesProviderError, got ${String(error)}`);
  return error;
}

async function samplePdf(): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText('Qualified agreement', { x: 72, y: 760, size: 18, font });
  return pdf;
}

describe('CSC client', () => {
  it('reads the credential’s whole chain and picks SHA-256 with RSA', async () => {
    const credential = await clientFor(imitationCredentials('cred-rsa')).credentialInfo();
    expect(credential.chain).toHaveLength(3);
    expect(credential.signAlgo).toBe(CSC_OID.sha256WithRSA);
    expect(credential.subjectDN).toContain('Erika Mustermann (RSA)');
    const [leaf, issuing] = credential.chain.map((der) => pkijs.Certificate.fromBER(der));
    expect(await leaf.verify(issuing)).toBe(true);
  });

  it('picks ECDSA with SHA-256 for an EC credential', async () => {
    expect((await clientFor(imitationCredentials('cred-ec')).credentialInfo()).signAlgo).toBe(CSC_OID.ecdsaWithSHA256);
  });

  it('lists the credentials the account’s client may use', async () => {
    expect(await clientFor(imitationCredentials()).listCredentials()).toEqual(['cred-rsa', 'cred-ec', 'cred-disabled', 'cred-expired']);
  });

  it('builds an authorization URL binding the credential, the hashes and a PKCE S256 challenge', async () => {
    const credentials = imitationCredentials();
    const hash = await sha256(new TextEncoder().encode('document'));
    const url = new URL(
      await clientFor(credentials).authorizationUrl({ redirectUri: REDIRECT, state: 'st', codeChallenge: 'c'.repeat(43), hashes: [hash] }),
    );
    expect(url.origin + url.pathname).toBe(`${credentials.prefix}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CSC_CLIENT_ID,
      redirect_uri: REDIRECT,
      scope: 'credential',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      state: 'st',
      credentialID: 'cred-rsa',
      numSignatures: '1',
      hashes: btoa(String.fromCharCode(...hash))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, ''),
      hashAlgorithmOID: CSC_OID.sha256,
    });
  });

  it('shows a consent page a browser can submit when no test switch answers', async () => {
    const client = clientFor(imitationCredentials());
    const url = await client.authorizationUrl({
      redirectUri: REDIRECT,
      state: 'st',
      codeChallenge: (await newPkcePair()).codeChallenge,
      hashes: [new Uint8Array(32)],
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<form method="post">');
    expect(html).toContain('id="imitation-approve"');
  });

  it('signs an authorized hash and the signature verifies with the credential’s certificate', async () => {
    const client = clientFor(imitationCredentials());
    const { chain, signAlgo } = await client.credentialInfo();
    const data = new TextEncoder().encode('signed attributes');
    const hash = await sha256(data);
    const [signature] = await client.signHash({ accessToken: await authorize(client, [hash]), hashes: [hash], signAlgo });
    const leaf = pkijs.Certificate.fromBER(chain[0]);
    const key = await crypto.subtle.importKey(
      'spki',
      leaf.subjectPublicKeyInfo.toSchema().toBER(false),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    expect(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, signature, data)).toBe(true);
  });
});

describe('CSC provider errors', () => {
  it('turns a rejected client secret into a final error a signer can read', async () => {
    const credentials = { ...imitationCredentials(), apiKey: `${CSC_CLIENT_ID}:wrong` };
    const error = await caught(clientFor(credentials).credentialInfo());
    expect(error).toMatchObject({ kind: 'rejected_credentials', retryable: false });
    expect(english(error.signerMessage)).toBe(
      'The qualified signature provider refused this sender’s signing setup. Nothing was signed; please tell the sender.',
    );
  });

  it('turns an outage into a retryable error', async () => {
    const credentials = imitationCredentials();
    await imitationSwitch(credentials.prefix, 'outage', { count: 1 });
    const error = await caught(clientFor(credentials).credentialInfo());
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
    expect(english(error.signerMessage)).toContain('try again in a moment');
  });

  it('never carries the provider’s own words', async () => {
    const credentials = imitationCredentials();
    await imitationSwitch(credentials.prefix, 'fail-next', {
      method: 'credentials/info',
      status: 400,
      error: 'Some Thing',
      error_description: 'internal stack trace',
    });
    const error = await caught(clientFor(credentials).credentialInfo());
    expect(`${error.message} ${english(error.signerMessage)}`).not.toMatch(/stack trace|Some Thing/);
    expect(error.message).toBe('The QES provider refused credentials/info (HTTP 400).');
  });

  it('refuses a certificate chain that is not X.509', async () => {
    const credentials = imitationCredentials();
    const body = {
      key: { status: 'enabled', algo: [CSC_OID.sha256WithRSA], len: 2048 },
      cert: { status: 'valid', certificates: [btoa('not a certificate')] },
      multisign: 1,
    };
    await imitationSwitch(credentials.prefix, 'fail-next', { method: 'credentials/info', status: 200, body });
    const error = await caught(clientFor(credentials).credentialInfo());
    expect(error).toMatchObject({ kind: 'bad_response', message: 'The QES provider’s certificate chain is not base64 DER X.509.' });
  });

  it('refuses a signHash answer without one signature per hash', async () => {
    const credentials = imitationCredentials();
    const client = clientFor(credentials);
    const hash = new Uint8Array(32).fill(5);
    const token = await authorize(client, [hash]);
    await imitationSwitch(credentials.prefix, 'fail-next', { method: 'signatures/signHash', status: 200, body: { signatures: [] } });
    const error = await caught(client.signHash({ accessToken: token, hashes: [hash], signAlgo: CSC_OID.sha256WithRSA }));
    expect(error).toMatchObject({ kind: 'bad_response', retryable: true });
  });

  it('calls nothing at a URL the policy refuses', async () => {
    const error = await caught(clientFor({ ...imitationCredentials(), apiUrl: 'http://169.254.169.254/csc/v2' }).credentialInfo());
    expect(error).toMatchObject({ kind: 'blocked_url', retryable: false });
    expect(error.message).toBe(
      'qes_provider_api_url points to 169.254.169.254, link-local, where cloud metadata services live (169.254.0.0/16), which the signing service may not call.',
    );
  });

  it('refuses to follow an authorization server on another origin', async () => {
    const credentials = imitationCredentials();
    await imitationSwitch(credentials.prefix, 'oauth2', { url: 'https://auth.example.com/' });
    const error = await caught(clientFor(credentials).serviceToken());
    expect(error).toMatchObject({ kind: 'blocked_url', retryable: false });
    expect(error.message).toBe(
      `The QES provider's authorization server is at https://auth.example.com, not at qes_provider_api_url's origin ${env.TEST_CSC_URL}; requests go to that origin only.`,
    );
    expect((await imitationRequests(credentials.prefix)).map((r) => r.path)).toEqual(['info']);
  });

  it('reports a declined authorization as declined, with a retry', async () => {
    const client = clientFor(imitationCredentials());
    const error = await caught(authorize(client, [new Uint8Array(32)], 'deny'));
    expect(error).toMatchObject({ kind: 'declined', retryable: true });
  });

  it('refuses to sign a hash the signer did not authorize', async () => {
    const client = clientFor(imitationCredentials());
    const token = await authorize(client, [new Uint8Array(32).fill(1)]);
    const error = await caught(
      client.signHash({ accessToken: token, hashes: [new Uint8Array(32).fill(2)], signAlgo: CSC_OID.sha256WithRSA }),
    );
    expect(error).toMatchObject({ kind: 'authorization_mismatch', retryable: true });
  });

  it('refuses a second signature beyond numSignatures', async () => {
    const client = clientFor(imitationCredentials());
    const hash = new Uint8Array(32).fill(3);
    const token = await authorize(client, [hash]);
    await client.signHash({ accessToken: token, hashes: [hash], signAlgo: CSC_OID.sha256WithRSA });
    const error = await caught(client.signHash({ accessToken: token, hashes: [hash], signAlgo: CSC_OID.sha256WithRSA }));
    expect(error.kind).toBe('authorization_mismatch');
  });

  it('reports an expired SAD as an authorization to renew', async () => {
    const credentials = imitationCredentials();
    const client = clientFor(credentials);
    const hash = new Uint8Array(32).fill(4);
    const token = await authorize(client, [hash]);
    await imitationSwitch(credentials.prefix, 'expire');
    const error = await caught(client.signHash({ accessToken: token, hashes: [hash], signAlgo: CSC_OID.sha256WithRSA }));
    expect(error).toMatchObject({ kind: 'authorization_expired', retryable: true });
  });

  it('refuses an authorization code exchanged with another PKCE verifier', async () => {
    const client = clientFor(imitationCredentials());
    const { codeChallenge } = await newPkcePair();
    const state = await signerState(env.ENCRYPTION_KEY, SIGNER);
    const back = await answerConsent(
      await client.authorizationUrl({ redirectUri: REDIRECT, state, codeChallenge, hashes: [new Uint8Array(32)] }),
      'approve',
    );
    const code = await authorizationCode(env.ENCRYPTION_KEY, back, SIGNER);
    const error = await caught(client.exchangeCode({ code, codeVerifier: (await newPkcePair()).codeVerifier, redirectUri: REDIRECT }));
    expect(error.kind).toBe('authorization_expired');
  });
});

describe('authorization state', () => {
  it('belongs to the signer it was made for, and to no other', async () => {
    const state = await signerState(env.ENCRYPTION_KEY, SIGNER);
    expect(await stateBelongsTo(env.ENCRYPTION_KEY, state, SIGNER)).toBe(true);
    expect(await stateBelongsTo(env.ENCRYPTION_KEY, state, 'submitter:43')).toBe(false);
  });

  it('expires', async () => {
    const made = new Date('2026-11-26T10:00:00Z');
    const state = await signerState(env.ENCRYPTION_KEY, SIGNER, made);
    const later = new Date(made.getTime() + (STATE_TTL_SECONDS + 1) * 1000);
    expect(await stateBelongsTo(env.ENCRYPTION_KEY, state, SIGNER, later)).toBe(false);
  });

  it('refuses a tampered state', async () => {
    const state = await signerState(env.ENCRYPTION_KEY, SIGNER);
    const forged = `${btoa(JSON.stringify({ s: SIGNER, n: 'x', e: 9999999999 })).replace(/=+$/, '')}.${state.split('.')[1]}`;
    expect(await stateBelongsTo(env.ENCRYPTION_KEY, forged, SIGNER)).toBe(false);
    expect(await stateBelongsTo(env.ENCRYPTION_KEY, 'garbage', SIGNER)).toBe(false);
  });

  it('refuses a callback with another signer’s state before reading its code', async () => {
    const state = await signerState(env.ENCRYPTION_KEY, 'submitter:43');
    const error = await caught(authorizationCode(env.ENCRYPTION_KEY, new URLSearchParams({ code: 'c', state }), SIGNER));
    expect(error.kind).toBe('authorization_expired');
  });
});

describe('CMS from a provider signature', () => {
  for (const credentialId of ['cred-rsa', 'cred-ec']) {
    it(`signs a PDF through the provider that pdfsig reports valid (${credentialId})`, async () => {
      const client = clientFor(imitationCredentials(credentialId));
      const { chain, signAlgo } = await client.credentialInfo();
      const signer = providerSigner(chain, async (hash) => {
        const [signature] = await client.signHash({ accessToken: await authorize(client, [hash]), hashes: [hash], signAlgo });
        return signature;
      });
      const signed = await signPdf(await samplePdf(), signer, { name: 'Erika Mustermann', reason: 'Qualified signature' });
      const { pdfsig, qpdf } = await checkPdf(signed);
      expect(pdfsig.output).toContain('Signature Validation: Signature is Valid.');
      expect(pdfsig.output).toContain('Signature Type: ETSI.CAdES.detached');
      expect(pdfsig.output).toContain(
        `Signer Certificate Common Name: Erika Mustermann (${credentialId === 'cred-rsa' ? 'RSA' : 'ECDSA'})`,
      );
      expect(qpdf.code).toBe(0);

      const tampered = signed.slice();
      const at = new TextDecoder('latin1').decode(signed).indexOf('Qualified agreement');
      if (at > 0) tampered[at] ^= 0x01;
      else tampered[200] ^= 0x01;
      expect((await checkPdf(tampered)).pdfsig.output).not.toContain('Signature is Valid.');
    });
  }

  it('carries a signature timestamp over the provider’s signature (B-T) that pdfsig reports', async () => {
    const client = clientFor(imitationCredentials());
    const { chain, signAlgo } = await client.credentialInfo();
    const signer = providerSigner(
      chain,
      async (hash) => (await client.signHash({ accessToken: await authorize(client, [hash]), hashes: [hash], signAlgo }))[0],
    );
    const signed = await signPdf(await samplePdf(), signer, { name: 'Erika Mustermann' }, timestamperFor([`${env.TEST_TSA_URL}/tsa`]));
    const { pdfsig } = await checkPdf(signed);
    expect(pdfsig.output).toContain('Signature Validation: Signature is Valid.');
    const [signature] = signaturesIn(signed);
    const timestamp = await signatureTimestampOf(signature.contents);
    expect(timestamp).not.toBeNull();
    expect((await verifyTimestampToken(env.TEST_TSA_URL, timestamp!.token, timestamp!.digestHex)).output).toContain('Verification: OK');
  });

  it('builds a CMS from a hash authorized before and signed after the signer’s trip', async () => {
    const client = clientFor(imitationCredentials());
    const { chain, signAlgo } = await client.credentialInfo();
    const content = new TextEncoder().encode('the byte ranges of a PDF');
    const digest = await sha256(content);
    // Before the redirect: the hash the signer authorizes.
    const hash = await signedAttributesHash(digest, chain);
    const token = await authorize(client, [hash]);
    // After it: signHash, then the CMS.
    const [signature] = await client.signHash({ accessToken: token, hashes: [hash], signAlgo });
    const cms = await cmsFromSignHash(digest, chain, signature);
    const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(cms).content });
    expect(signedData.certificates).toHaveLength(3);
    expect(await signedData.verify({ signer: 0, data: content.slice().buffer as ArrayBuffer, checkChain: false })).toBe(true);
  });

  it('refuses a provider signature that is not over the authorized hash', async () => {
    const client = clientFor(imitationCredentials());
    const { chain, signAlgo } = await client.credentialInfo();
    const other = new Uint8Array(32).fill(7);
    const [signature] = await client.signHash({ accessToken: await authorize(client, [other]), hashes: [other], signAlgo });
    const error = await caught(cmsFromSignHash(await sha256(new Uint8Array([1, 2, 3])), chain, signature));
    expect(error).toMatchObject({
      kind: 'bad_response',
      message: 'The QES provider’s signature does not verify with the credential’s certificate.',
    });
  });

  it('asks the provider only for info, a token, the credential and the signature', async () => {
    const credentials = imitationCredentials();
    const client = clientFor(credentials);
    const { chain, signAlgo } = await client.credentialInfo();
    const hash = await signedAttributesHash(await sha256(new Uint8Array([9])), chain);
    await client.signHash({ accessToken: await authorize(client, [hash]), hashes: [hash], signAlgo });
    expect((await imitationRequests(credentials.prefix)).map((r) => r.path)).toEqual([
      'info',
      'oauth2/token',
      'credentials/info',
      'oauth2/authorize',
      'oauth2/token',
      'signatures/signHash',
    ]);
  });
});
