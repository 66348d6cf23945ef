// PAdES B-T (decisions.md › Signature levels): the seal's CMS carries an RFC 3161 signature-timestamp
// from the first working authority in TSA_URLS; every kind of TSA failure fails the seal instead.
import { env } from 'cloudflare:test';
import * as asn1js from 'asn1js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigningIdentity, type SigningIdentity } from '../../src/services/pdf/certificate';
import { signPdf } from '../../src/services/pdf/pades';
import { sealDocument } from '../../src/services/pdf/seal';
import { readTimestampResponse, timestamperFor, TimestampFailure } from '../../src/services/pdf/timestamp';
import { checkPdf } from '../pdf-tools';
import { signatureTimestampOf, signaturesIn, verifyTimestampToken } from '../signature-contents';

const TSA = `${env.TEST_TSA_URL}/tsa`;

async function samplePdf(): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText('Agreement', { x: 72, y: 760, size: 18, font });
  return pdf;
}

async function sampleBytes(): Promise<Uint8Array> {
  return (await samplePdf()).save();
}

function trail() {
  return {
    serviceName: 'Signing Service',
    documentName: 'Lease.pdf',
    templateName: 'Lease',
    submissionRef: 'sub_t',
    completedAt: null,
    signers: [],
    events: [],
  };
}

describe('PAdES B-T seal', () => {
  let signer: SigningIdentity;
  beforeAll(async () => {
    signer = await generateSigningIdentity({ commonName: 'Acme Seal', organization: 'Acme Inc.' });
  });

  // pdfsig 22.12 does not print a signature-timestamp; openssl ts -verify (next test) checks it.
  it('is reported valid by pdfsig and qpdf with its timestamp embedded', async () => {
    const signed = await signPdf(await samplePdf(), signer, { name: 'Acme Inc.' }, timestamperFor([TSA]));
    const { pdfsig, qpdf } = await checkPdf(signed);
    expect(pdfsig.output).toContain('Signature Validation: Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(qpdf.code).toBe(0);
    expect(await signatureTimestampOf(signaturesIn(signed)[0].contents)).not.toBeNull();
  });

  it('carries a token that openssl ts -verify accepts over the signature value, against the TSA CA', async () => {
    const signed = await signPdf(await samplePdf(), signer, { name: 'Acme Inc.' }, timestamperFor([TSA]));
    const [signature] = signaturesIn(signed);
    const stamp = await signatureTimestampOf(signature.contents);
    expect(stamp).not.toBeNull();
    const result = await verifyTimestampToken(env.TEST_TSA_URL, stamp!.token, stamp!.digestHex);
    expect(result.output).toContain('Verification: OK');
  });

  it('carries a token that openssl ts -verify rejects for any other signature value', async () => {
    const signed = await signPdf(await samplePdf(), signer, { name: 'Acme Inc.' }, timestamperFor([TSA]));
    const stamp = (await signatureTimestampOf(signaturesIn(signed)[0].contents))!;
    const flipped = `${stamp.digestHex[0] === '0' ? '1' : '0'}${stamp.digestHex.slice(1)}`;
    const result = await verifyTimestampToken(env.TEST_TSA_URL, stamp.token, flipped);
    expect(result.code).not.toBe(0);
    expect(result.output).not.toContain('Verification: OK');
  });

  it('is reported invalid by pdfsig when one signed byte changes', async () => {
    const signed = await signPdf(await samplePdf(), signer, { name: 'Acme Inc.' }, timestamperFor([TSA]));
    const tampered = signed.slice();
    const text = new TextDecoder('latin1').decode(signed);
    const producer = text.indexOf('/Producer <FEFF') + '/Producer <FEFF'.length;
    expect(producer).toBeGreaterThan(20);
    tampered[producer + 1] = tampered[producer + 1] === 0x30 ? 0x31 : 0x30;
    const { pdfsig } = await checkPdf(tampered);
    expect(pdfsig.output).not.toContain('Signature is Valid.');
  });

  it('has no timestamp without a timestamper (B-B)', async () => {
    const signed = await signPdf(await samplePdf(), signer, { name: 'Acme Inc.' });
    expect(await signatureTimestampOf(signaturesIn(signed)[0].contents)).toBeNull();
  });

  it('uses the next authority in the list when the first is down', async () => {
    const signed = await signPdf(
      await samplePdf(),
      signer,
      { name: 'Acme Inc.' },
      timestamperFor([`${env.TEST_TSA_URL}/tsa/unavailable`, TSA]),
    );
    expect(await signatureTimestampOf(signaturesIn(signed)[0].contents)).not.toBeNull();
  });

  it('says on the audit page that the seal is B-LTA when timestamped', async () => {
    const sealed = await sealDocument({
      original: await sampleBytes(),
      stamps: [],
      trail: trail(),
      signer,
      signature: { name: 'Acme Inc.' },
      timestamper: timestamperFor([TSA]),
    });
    const { text, pdfsig } = await checkPdf(sealed.bytes);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(text.output).toContain('PAdES B-LTA');
  });

  it('says on the audit page that the seal is B-B, for development only, without a timestamper', async () => {
    const sealed = await sealDocument({
      original: await sampleBytes(),
      stamps: [],
      trail: trail(),
      signer,
      signature: { name: 'Acme Inc.' },
    });
    const { text } = await checkPdf(sealed.bytes);
    expect(text.output).toContain('PAdES B-B');
    expect(text.output.replace(/\s+/g, ' ')).toContain('no time-stamping authority is configured');
  });

  for (const [what, path, message] of [
    ['is down (HTTP 503)', '/tsa/unavailable', /HTTP 503/],
    ['refuses the request (status rejection)', '/tsa/rejection', /refused the request \(status 2\)/],
    ['answers over another hash', '/tsa/wrong-imprint', /different hash/],
    ['answers with another nonce', '/tsa/wrong-nonce', /different nonce/],
    ['cannot be reached', '/nowhere-port', /could not be reached|HTTP 404/],
  ] as const) {
    it(`fails the seal, with no file made, when the authority ${what}`, async () => {
      const url = path === '/nowhere-port' ? 'http://127.0.0.1:9/tsa' : `${env.TEST_TSA_URL}${path}`;
      const attempt = sealDocument({
        original: await sampleBytes(),
        stamps: [],
        trail: trail(),
        signer,
        signature: { name: 'Acme Inc.' },
        timestamper: timestamperFor([url]),
      });
      await expect(attempt).rejects.toThrow(TimestampFailure);
      await expect(attempt).rejects.toThrow(message);
    });
  }
});

/** A real TimeStampResp from the local TSA over `digest` with `nonce`, as the bytes it sent. */
async function tsaResponse(digest: Uint8Array, nonce: Uint8Array): Promise<Uint8Array> {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' }),
      hashedMessage: new asn1js.OctetString({ valueHex: digest }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  const res = await fetch(TSA, {
    method: 'POST',
    headers: { 'Content-Type': 'application/timestamp-query' },
    body: new Uint8Array(request.toSchema().toBER(false)),
  });
  return new Uint8Array(await res.arrayBuffer());
}

const indexOf = (haystack: Uint8Array, needle: Uint8Array) =>
  haystack.findIndex((_, i) => i + needle.length <= haystack.length && needle.every((b, j) => haystack[i + j] === b));

// The token is read part by part (its certificates through the per-isolate cache) and returned as the
// TSA wrote it (decisions.md › B-LTA over B-B): each check it makes still refuses what it should.
describe('A time-stamp response read', () => {
  const digest = crypto.getRandomValues(new Uint8Array(32));
  const nonce = new Uint8Array([0x31, 2, 3, 4, 5, 6, 7, 8]);

  it('gives the token as the bytes the TSA wrote', async () => {
    const response = await tsaResponse(digest, nonce);
    const token = await readTimestampResponse(response, digest, nonce);
    expect(token.length).toBeGreaterThan(1000);
    expect(indexOf(response, token)).toBe(response.length - token.length);
  });

  it('refuses a token whose authority signature does not verify (one byte of the signature changed)', async () => {
    const response = await tsaResponse(digest, nonce);
    // The token ends the response, and its SignerInfo's signature value ends the token.
    response[response.length - 1] ^= 0x01;
    await expect(readTimestampResponse(response, digest, nonce)).rejects.toThrow(/does not carry a valid signature/);
  });

  it('refuses a token whose TSTInfo was changed after signing (its messageDigest no longer matches)', async () => {
    const response = await tsaResponse(digest, nonce);
    // The nonce sits inside the signed TSTInfo; a changed copy of it changes what the token says.
    const at = indexOf(response, nonce);
    expect(at).toBeGreaterThan(0);
    response[at + nonce.length - 1] ^= 0x01;
    const changed = nonce.slice();
    changed[nonce.length - 1] ^= 0x01;
    await expect(readTimestampResponse(response, digest, changed)).rejects.toThrow(/does not carry a valid signature/);
  });

  it('refuses a response that is not DER at all', async () => {
    await expect(readTimestampResponse(new Uint8Array([0x30, 0x82, 0xff]), digest, nonce)).rejects.toThrow(/not a time-stamp response/);
  });
});
