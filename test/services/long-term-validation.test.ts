// PAdES B-LT and B-LTA (decisions.md › Signature levels): a sealed file with a timestamper gets a DSS
// holding every certificate and OCSP response (or, where a CA names no responder, CRL) its signature
// and signature-timestamp need, and a document timestamp over the whole file; an OCSP or CRL failure,
// or a revoked certificate, fails the seal.
import { env } from 'cloudflare:test';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigningIdentity, type SigningIdentity } from '../../src/services/pdf/certificate';
import { sealDocument } from '../../src/services/pdf/seal';
import { timestamperFor } from '../../src/services/pdf/timestamp';
import { ValidationDataFailure } from '../../src/services/pdf/validation-data';
import { inspectSignatures } from '../../src/services/pdf/verify';
import { checkPdf } from '../pdf-tools';
import { signaturesIn, verifyTimestampToken } from '../signature-contents';

const TSA = `${env.TEST_TSA_URL}/tsa`;

async function sampleBytes(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText('Agreement', { x: 72, y: 760, size: 18, font });
  return pdf.save();
}

const trail = {
  serviceName: 'Signing Service',
  documentName: 'Lease.pdf',
  templateName: 'Lease',
  submissionRef: 'sub_t',
  completedAt: null,
  signers: [],
  events: [],
};

async function dssOf(bytes: Uint8Array): Promise<{ certs: Uint8Array[]; ocsps: Uint8Array[]; crls: Uint8Array[] }> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const dss = pdf.catalog.lookup(PDFName.of('DSS'), PDFDict);
  const streams = (key: string) =>
    (dss.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? []).map((ref) => (pdf.context.lookup(ref) as PDFRawStream).getContents());
  return { certs: streams('Certs'), ocsps: streams('OCSPs'), crls: streams('CRLs') };
}

const subject = (der: Uint8Array) =>
  pkijs.Certificate.fromBER(der)
    .subject.typesAndValues.map((t) => String(t.value.valueBlock.value))
    .join(', ');
const serialHex = (c: pkijs.Certificate) =>
  Array.from(c.serialNumber.valueBlock.valueHexView, (b) => b.toString(16).padStart(2, '0')).join('');

async function sha256Hex(parts: Uint8Array[]): Promise<string> {
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', joined)), (b) => b.toString(16).padStart(2, '0')).join('');
}

describe('PAdES B-LTA seal', () => {
  let signer: SigningIdentity;
  let sealed: Uint8Array;
  beforeAll(async () => {
    signer = await generateSigningIdentity({ commonName: 'Acme Seal', organization: 'Acme Inc.' });
    sealed = (
      await sealDocument({
        original: await sampleBytes(),
        stamps: [],
        trail,
        signer,
        signature: { name: 'Acme Inc.' },
        timestamper: timestamperFor([TSA]),
      })
    ).bytes;
  });

  // pdfsig 22.12 cannot verify ETSI.RFC3161 (it prints "Signature Type: unknown … not yet verified");
  // openssl ts -verify checks the document timestamp instead (next test).
  it('has pdfsig report the seal valid and the document timestamp covering the whole file, and qpdf no errors', async () => {
    const { pdfsig, qpdf } = await checkPdf(sealed);
    const [seal, timestamp] = pdfsig.output.split(/Signature #\d+:/).slice(1);
    expect(seal).toContain('Signature Type: ETSI.CAdES.detached');
    expect(seal).toContain('Signature Validation: Signature is Valid.');
    expect(timestamp).toContain('Signer Certificate Common Name: Test TSA');
    expect(timestamp).toContain('Total document signed');
    expect(pdfsig.output).not.toMatch(/Digest Mismatch|Signature is Invalid/);
    expect(qpdf.code).toBe(0);
  });

  it('ends with a document timestamp over the whole file that openssl ts -verify accepts', async () => {
    const signatures = signaturesIn(sealed);
    expect(signatures.map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161']);
    const [a, b, c, d] = signatures[1].byteRange;
    expect(c + d).toBe(sealed.length);
    const digest = await sha256Hex([sealed.subarray(a, a + b), sealed.subarray(c, c + d)]);
    expect((await verifyTimestampToken(env.TEST_TSA_URL, signatures[1].contents, digest)).output).toContain('Verification: OK');
  });

  it('is reported by the service’s own verifier (POST /api/tools/verify) as a valid seal and a valid document timestamp with its time', async () => {
    const [seal, timestamp] = await inspectSignatures(sealed);
    expect(seal).toMatchObject({ sub_filter: 'ETSI.CAdES.detached', integrity_valid: true, covers_whole_document: false });
    expect(timestamp).toMatchObject({
      sub_filter: 'ETSI.RFC3161',
      integrity_valid: true,
      covers_whole_document: true,
      signer_common_name: 'Test TSA',
    });
    expect(Math.abs(Date.parse(timestamp.signing_time!) - Date.now())).toBeLessThan(5 * 60_000);
  });

  it('holds in its DSS the seal certificate, the TSA certificate and the TSA root', async () => {
    const { certs } = await dssOf(sealed);
    const subjects = certs.map(subject);
    expect(subjects).toContain('Acme Seal, Acme Inc.');
    expect(subjects).toContain('Signing Service Tests, Test TSA');
    expect(subjects).toContain('Signing Service Tests, Test TSA Root CA');
  });

  it('holds in its DSS a good OCSP response, signed by the TSA root, for the TSA certificate', async () => {
    const { certs, ocsps } = await dssOf(sealed);
    expect(ocsps).toHaveLength(1);
    const tsa = pkijs.Certificate.fromBER(certs.find((c) => subject(c) === 'Signing Service Tests, Test TSA')!);
    const root = pkijs.Certificate.fromBER(certs.find((c) => subject(c) === 'Signing Service Tests, Test TSA Root CA')!);
    const response = pkijs.OCSPResponse.fromBER(ocsps[0]);
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes!.response.valueBlock.valueHexView);
    expect(await basic.verify({ trustedCerts: [root] })).toBe(true);
    const status = await basic.getCertificateStatus(tsa, root);
    expect(status).toMatchObject({ isForCertificate: true, status: 0 });
    expect(serialHex(tsa)).toBe('1001');
  });

  it('has a document timestamp that openssl ts -verify rejects once one byte of the DSS changes', async () => {
    const text = new TextDecoder('latin1').decode(sealed);
    const at = text.indexOf('/Type /DSS');
    expect(at).toBeGreaterThan(0);
    const tampered = sealed.slice();
    tampered[at + '/Type /DS'.length] = 0x54; // "/Type /DSS" → "/Type /DST"
    const timestamp = signaturesIn(tampered)[1];
    const [a, b, c, d] = timestamp.byteRange;
    const digest = await sha256Hex([tampered.subarray(a, a + b), tampered.subarray(c, c + d)]);
    const result = await verifyTimestampToken(env.TEST_TSA_URL, timestamp.contents, digest);
    expect(result.output).not.toContain('Verification: OK');
  });

  it('is reported invalid by pdfsig when one byte the seal covers changes', async () => {
    const tampered = sealed.slice();
    expect(new TextDecoder('latin1').decode(tampered.subarray(0, 8))).toBe('%PDF-1.7');
    tampered[7] = 0x36; // %PDF-1.7 → %PDF-1.6: still a PDF, no longer the signed bytes
    const { pdfsig } = await checkPdf(tampered);
    expect(pdfsig.output.split(/Signature #\d+:/)[1]).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
  });

  it('asks the OCSP responder about a TSA certificate once while its answer is fresh, and puts the answer in every seal', async () => {
    const counted = async () => ((await (await fetch(`${env.TEST_TSA_URL}/__counts`)).json()) as { ocspCounted: number }).ocspCounted;
    const seal = async () =>
      (
        await sealDocument({
          original: await sampleBytes(),
          stamps: [],
          trail,
          signer,
          signature: { name: 'Acme Inc.' },
          timestamper: timestamperFor([`${env.TEST_TSA_URL}/tsa/counted`]),
        })
      ).bytes;
    const before = await counted();
    const first = await seal();
    const second = await seal();
    expect((await counted()) - before).toBe(1);
    expect((await dssOf(first)).ocsps).toEqual((await dssOf(second)).ocsps);
    expect((await dssOf(second)).ocsps).toHaveLength(1);
  });

  it('fails the seal when the TSA certificate’s OCSP responder is down', async () => {
    const attempt = sealDocument({
      original: await sampleBytes(),
      stamps: [],
      trail,
      signer,
      signature: { name: 'Acme Inc.' },
      timestamper: timestamperFor([`${env.TEST_TSA_URL}/tsa/ocsp-down`]),
    });
    await expect(attempt).rejects.toThrow(ValidationDataFailure);
    await expect(attempt).rejects.toThrow(/OCSP responder for the certificate "Signing Service Tests, Test TSA" answered HTTP 503/);
  });
});

describe('PAdES B-LTA seal when the TSA certificate names a CRL distribution point and no OCSP responder', () => {
  let signer: SigningIdentity;
  const sealWith = async (path: string) =>
    (
      await sealDocument({
        original: await sampleBytes(),
        stamps: [],
        trail,
        signer,
        signature: { name: 'Acme Inc.' },
        timestamper: timestamperFor([`${env.TEST_TSA_URL}${path}`]),
      })
    ).bytes;
  const crlFetches = async () => ((await (await fetch(`${env.TEST_TSA_URL}/__counts`)).json()) as { crl: number }).crl;
  beforeAll(async () => {
    signer = await generateSigningIdentity({ commonName: 'Acme Seal', organization: 'Acme Inc.' });
  });

  it('holds in its DSS the CA’s CRL, signed by the TSA root, not listing the TSA certificate, and no OCSP response', async () => {
    const sealed = await sealWith('/tsa/crl');
    const { certs, ocsps, crls } = await dssOf(sealed);
    expect(ocsps).toHaveLength(0);
    expect(crls).toHaveLength(1);
    const crl = pkijs.CertificateRevocationList.fromBER(crls[0]);
    const root = pkijs.Certificate.fromBER(certs.find((c) => subject(c) === 'Signing Service Tests, Test TSA Root CA')!);
    const tsa = pkijs.Certificate.fromBER(certs.find((c) => subject(c) === 'Signing Service Tests, Test TSA')!);
    expect(serialHex(tsa)).toBe('1004');
    expect(await crl.verify({ issuerCertificate: root })).toBe(true);
    expect((crl.revokedCertificates ?? []).some((entry) => entry.userCertificate.isEqual(tsa.serialNumber))).toBe(false);
    expect(crl.nextUpdate!.value.getTime()).toBeGreaterThan(Date.now());
    const { pdfsig } = await checkPdf(sealed);
    expect(pdfsig.output.split(/Signature #\d+:/)[1]).toContain('Signature Validation: Signature is Valid.');
  });

  it('fetches the CRL once while it is fresh and puts it in every seal', async () => {
    const first = await sealWith('/tsa/crl');
    const before = await crlFetches();
    const second = await sealWith('/tsa/crl');
    expect((await crlFetches()) - before).toBe(0);
    expect((await dssOf(second)).crls).toEqual((await dssOf(first)).crls);
  });

  it('fails the seal when the CRL lists the TSA certificate as revoked', async () => {
    const attempt = sealWith('/tsa/crl-revoked');
    await expect(attempt).rejects.toThrow(ValidationDataFailure);
    await expect(attempt).rejects.toThrow('The CRL says the certificate "Signing Service Tests, Test TSA" is revoked.');
  });

  it('fails the seal when the CRL distribution point is down', async () => {
    const attempt = sealWith('/tsa/crl-down');
    await expect(attempt).rejects.toThrow(ValidationDataFailure);
    await expect(attempt).rejects.toThrow(
      'The CRL distribution point for the certificate "Signing Service Tests, Test TSA" answered HTTP 503.',
    );
  });
});
