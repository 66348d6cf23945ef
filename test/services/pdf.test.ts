// Reading uploaded PDFs: page facts of good files, sentences for unusable ones.
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '../../src/services/documents/pdf';
import { prepareDocuments } from '../../src/services/documents/ingest';
import { makeEncryptedPdf, makePdf, makePdfWithEmptySignatureField, makeSignedPdf, realWorldPdf } from '../fixtures/pdfs';

describe('inspectPdf', () => {
  it('reads the page count and sizes of the real-world PDF', async () => {
    const facts = await inspectPdf(realWorldPdf());
    expect(facts.pageCount).toBe(17);
    expect(new Set(facts.pageDimensions.map((d) => `${d.width}x${d.height}`))).toEqual(new Set(['609.714x789.041']));
  });

  it('reads pages of different sizes in one file', async () => {
    const facts = await inspectPdf(await makePdf(2, [595.28, 841.89]));
    expect(facts.pageDimensions).toEqual([
      { width: 595.28, height: 841.89 },
      { width: 595.28, height: 841.89 },
    ]);
  });

  it('refuses an encrypted file', async () => {
    await expect(inspectPdf(await makeEncryptedPdf())).rejects.toThrow('is encrypted or password-protected; upload a copy without a password');
  });

  it('refuses a file that is already digitally signed', async () => {
    await expect(inspectPdf(await makeSignedPdf())).rejects.toThrow('is already digitally signed; filling it in would invalidate that signature');
  });

  it('accepts a file with an empty signature field', async () => {
    expect((await inspectPdf(await makePdfWithEmptySignatureField())).pageCount).toBe(1);
  });

  it('refuses bytes that are not a PDF', async () => {
    await expect(inspectPdf(new TextEncoder().encode('<html></html>'))).rejects.toThrow('is not a PDF file');
  });
});

describe('prepareDocuments', () => {
  it('names a DOCX upload as not yet supported', async () => {
    const docx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    await expect(prepareDocuments(1, [{ label: 'documents[0]', name: 'contract.docx', bytes: docx }])).rejects.toMatchObject({
      status: 422,
      error: 'documents[0] looks like a DOCX file; only PDF uploads are supported so far.',
    });
  });

  it('refuses an empty file', async () => {
    await expect(prepareDocuments(1, [{ label: 'documents[0]', name: 'empty', bytes: new Uint8Array() }])).rejects.toMatchObject({
      error: 'documents[0] is an empty file.',
    });
  });

  it('counts the pages a template already has toward the 500-page limit', async () => {
    const upload = { label: 'documents[0]', name: 'more', bytes: await makePdf(2) };
    await expect(prepareDocuments(1, [upload], { documents: 1, pages: 499 })).rejects.toMatchObject({
      error: 'A template can have at most 500 pages in all; these documents would give it 501.',
    });
  });
});
