// Reading uploaded PDFs: page facts of good files, sentences for unusable ones.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '../../src/services/pdf/inspect-pdf';
import { ingestDocuments, type Upload } from '../../src/services/documents/ingest';
import { makeEncryptedPdf, makePdf, makePdfWithEmptySignatureField, makeSignedPdf, realWorldPdf } from '../fixtures/pdfs';
import { makeUsageRightsForm } from '../fixtures/signed-pdfs';

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
    await expect(inspectPdf(await makeEncryptedPdf())).rejects.toThrow(
      'is encrypted or password-protected; upload a copy without a password',
    );
  });

  it('accepts a file another party signed already (an approval signature): it is co-signed (issue 33 › 6)', async () => {
    expect((await inspectPdf(await makeSignedPdf())).pageCount).toBe(1);
  });

  it('accepts a form whose only signature is a usage-rights signature (/Perms /UR3)', async () => {
    expect((await inspectPdf(await makeUsageRightsForm())).pageCount).toBe(1);
  });

  it('accepts a file with an empty signature field', async () => {
    expect((await inspectPdf(await makePdfWithEmptySignatureField())).pageCount).toBe(1);
  });

  it('refuses bytes that are not a PDF', async () => {
    await expect(inspectPdf(new TextEncoder().encode('<html></html>'))).rejects.toThrow('is not a PDF file');
  });
});

let account = 1000;
/** Ingests into a fresh account's prefix of the real local R2 bucket. */
function ingest(uploads: Upload[], existing?: { documents: number; pages: number }) {
  account += 1;
  return { accountId: account, result: ingestDocuments(env.FILES, account, uploads, existing) };
}

async function storedKeys(accountId: number): Promise<string[]> {
  return (await env.FILES.list({ prefix: `templates/${accountId}/` })).objects.map((o) => o.key);
}

describe('ingestDocuments', () => {
  it('stores each accepted file under its key, with the facts of its pages', async () => {
    const { accountId, result } = ingest([{ label: 'documents[0]', name: 'two', bytes: await makePdf(2) }]);
    const { documents, stored } = await result;
    expect(documents.map((d) => d.pageCount)).toEqual([2]);
    expect(stored).toEqual([documents[0].r2Key]);
    expect(await storedKeys(accountId)).toEqual(stored);
  });

  it('names a DOCX upload that reaches the ingest unconverted', async () => {
    const docx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    await expect(ingest([{ label: 'documents[0]', name: 'contract.docx', bytes: docx }]).result).rejects.toMatchObject({
      status: 422,
      error:
        'documents[0] looks like a DOCX file; DOCX files are converted when a template is created (POST /api/templates/docx), so add a PDF here.',
    });
  });

  it('refuses an empty file', async () => {
    await expect(ingest([{ label: 'documents[0]', name: 'empty', bytes: new Uint8Array() }]).result).rejects.toMatchObject({
      error: 'documents[0] is an empty file.',
    });
  });

  it('names the problems of every file at once, storing none of them', async () => {
    const { accountId, result } = ingest([
      { label: 'documents[0]', name: 'empty', bytes: new Uint8Array() },
      { label: 'documents[1]', name: 'locked', bytes: await makeEncryptedPdf() },
      { label: 'documents[2]', name: 'fine', bytes: await makePdf(1) },
    ]);
    await expect(result).rejects.toMatchObject({
      error: ['documents[0] is an empty file.', 'documents[1] is encrypted or password-protected; upload a copy without a password.'],
    });
    expect(await storedKeys(accountId)).toEqual([]);
  });

  it('deletes what it stored when a file fails to parse after passing the cheap checks', async () => {
    const truncated = (await makePdf(3)).slice(0, 400);
    const corrupt = new Uint8Array([...truncated, ...new TextEncoder().encode('\n%%EOF\n')]);
    const { accountId, result } = ingest([
      { label: 'documents[0]', name: 'fine', bytes: await makePdf(1) },
      { label: 'documents[1]', name: 'broken', bytes: corrupt },
    ]);
    await expect(result).rejects.toMatchObject({ status: 422, error: 'documents[1] is corrupt and cannot be read as a PDF.' });
    expect(await storedKeys(accountId)).toEqual([]);
  });

  it('counts the pages a template already has toward the 500-page limit, and keeps none of the files', async () => {
    const { accountId, result } = ingest([{ label: 'documents[0]', name: 'more', bytes: await makePdf(2) }], { documents: 1, pages: 499 });
    await expect(result).rejects.toMatchObject({
      error: 'A template can have at most 500 pages in all; these documents would give it 501.',
    });
    expect(await storedKeys(accountId)).toEqual([]);
  });
});
