import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigningIdentity, type SigningIdentity } from '../../src/services/pdf/certificate';
import { signPdf } from '../../src/services/pdf/pades';
import { checkPdf } from '../pdf-tools';

async function samplePdf(pages = 2): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i += 1) {
    pdf.addPage([595, 842]).drawText(`Agreement page ${i}`, { x: 72, y: 760, size: 18, font });
  }
  return pdf;
}

describe('PAdES signing', () => {
  let signer: SigningIdentity;
  beforeAll(async () => {
    signer = await generateSigningIdentity({ commonName: 'Acme Seal', organization: 'Acme Inc.' });
  });

  it('produces a signature pdfsig reports valid and covering the whole document', async () => {
    const signed = await signPdf(await samplePdf(), signer, { name: 'Acme Inc.', reason: 'Sealed after completion' });
    const { pdfsig, qpdf } = await checkPdf(signed);
    expect(pdfsig.output).toContain('Signature Validation: Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(pdfsig.output).toContain('Signature Type: ETSI.CAdES.detached');
    expect(qpdf.code).toBe(0);
  });

  it('is reported invalid by pdfsig when one signed byte changes', async () => {
    const signed = await signPdf(await samplePdf(), signer, { name: 'Acme Inc.' });
    // Change one hex digit of the /Producer string: the file still parses, the digest no longer matches.
    const text = new TextDecoder('latin1').decode(signed);
    const at = text.indexOf('/Producer <FEFF') + '/Producer <FEFF'.length;
    expect(at).toBeGreaterThan(20);
    const tampered = signed.slice();
    tampered[at + 1] = tampered[at + 1] === 0x30 ? 0x31 : 0x30;
    const { pdfsig } = await checkPdf(tampered);
    expect(pdfsig.output).not.toContain('Signature is Valid.');
    expect(pdfsig.output).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
  });

  it('names the signer certificate in the signature', async () => {
    const signed = await signPdf(await samplePdf(1), signer, { name: 'Acme Inc.' });
    const { pdfsig } = await checkPdf(signed);
    expect(pdfsig.output).toContain('Signer Certificate Common Name: Acme Seal');
  });
});
