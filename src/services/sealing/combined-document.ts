// Downloads of a submission's sealed documents as one file (decisions.md › Signed output): every page
// of every sealed document merged into one PDF and sealed again with the account's identity — the
// copies' own signatures cannot survive a merge, so their invisible signature fields are left out —
// or a zip of the individual sealed files, each keeping its own signature.
import { PDFDocument } from 'pdf-lib';
import { dropSignatureWidgets } from '../pdf/bundle';
import { loadPdf } from '../pdf/load-pdf';
import type { SigningIdentity } from '../pdf/certificate';
import { addLongTermValidation, signWholePdf } from '../pdf/pades';
import type { Timestamper } from '../pdf/timestamp';
import { collectValidationData } from '../pdf/validation-data';

/** The combined download as stored: a file once made, so every download of it is the same bytes. */
export type StoredCombined = { body: ReadableStream | Uint8Array; size: number; etag: string };

/**
 * The submission's combined PDF, made and stored under `key` on the first download. Sealing it again
 * on each download would give a new signing time, signature and SHA-256 every time. Two first
 * downloads at once both make it, but only one is stored (a create-only put) and both answer it.
 */
export async function storedCombinedDocument(bucket: R2Bucket, key: string, make: () => Promise<Uint8Array>): Promise<StoredCombined> {
  const existing = await bucket.get(key);
  if (existing) return { body: existing.body, size: existing.size, etag: existing.httpEtag };
  const bytes = await make();
  const stored = await bucket.put(key, bytes, { onlyIf: { etagDoesNotMatch: '*' }, httpMetadata: { contentType: 'application/pdf' } });
  if (stored) return { body: bytes, size: bytes.length, etag: stored.httpEtag };
  const winner = await bucket.get(key);
  if (!winner) throw new Error(`The combined document ${key} was stored by another request and is gone.`);
  return { body: winner.body, size: winner.size, etag: winner.httpEtag };
}

export async function combineSealedDocuments(
  files: Uint8Array[],
  title: string,
  signer: SigningIdentity,
  signature: { name: string; reason: string },
  /** With TSA_URLS the combined file is B-LTA like every seal (decisions.md › Signature levels). */
  timestamper?: Timestamper,
): Promise<Uint8Array> {
  const combined = await PDFDocument.create();
  combined.setTitle(title);
  for (const bytes of files) {
    const source = await loadPdf(bytes, { updateMetadata: false });
    for (const page of await combined.copyPages(source, source.getPageIndices())) {
      dropSignatureWidgets(page);
      combined.addPage(page);
    }
  }
  const signed = await signWholePdf(combined, signer, signature, timestamper);
  if (!timestamper) return signed.bytes;
  return addLongTermValidation(combined, signed.bytes, await collectValidationData([signed.contents]), timestamper);
}
