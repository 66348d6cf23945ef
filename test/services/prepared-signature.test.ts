// A signature reserved now and filled later (issue 18 › 3: a QES provider signs between the two halves).
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { generateSigningIdentity } from '../../src/services/pdf/certificate';
import { createCadesDetachedSignature } from '../../src/services/pdf/cms-signature';
import { describeOriginal } from '../../src/services/pdf/incremental-update';
import { embedPreparedSignature, prepareSignature } from '../../src/services/pdf/pades';
import { checkPdf } from '../pdf-tools';

async function sampleBytes(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText('Agreement', { x: 72, y: 760, size: 18, font });
  return pdf.save({ useObjectStreams: false });
}

describe('prepareSignature and embedPreparedSignature', () => {
  it('give an incremental signature pdfsig reports valid, whose digest was known before the CMS', async () => {
    const bytes = await sampleBytes();
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    const prepared = await prepareSignature(pdf, describeOriginal(bytes, pdf), [], { name: 'Later Signer', fieldTitle: 'Signature' });
    expect(prepared.bytes.subarray(0, bytes.length)).toEqual(bytes);
    const signer = await generateSigningIdentity({ commonName: 'Later Signer', organization: 'Acme Inc.' });
    const signed = embedPreparedSignature(prepared, await createCadesDetachedSignature(prepared.digest, signer));
    expect(signed.length).toBe(prepared.bytes.length);
    const { pdfsig } = await checkPdf(signed);
    expect(pdfsig.output).toContain('Signature Validation: Signature is Valid.');
    expect(pdfsig.output).toContain('Signer Certificate Common Name: Later Signer');
  });

  it('is reported invalid when the CMS is for another digest', async () => {
    const bytes = await sampleBytes();
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    const prepared = await prepareSignature(pdf, describeOriginal(bytes, pdf), [], { name: 'Later Signer' });
    const signer = await generateSigningIdentity({ commonName: 'Later Signer', organization: 'Acme Inc.' });
    const wrong = prepared.digest.slice();
    wrong[0] ^= 1;
    const { pdfsig } = await checkPdf(embedPreparedSignature(prepared, await createCadesDetachedSignature(wrong, signer)));
    expect(pdfsig.output).not.toContain('Signature is Valid.');
  });
});
