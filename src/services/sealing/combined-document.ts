// Downloads of a submission's sealed documents as one file (decisions.md › Signed output): every page
// of every sealed document merged into one PDF and sealed again with the account's identity — the
// copies' own signatures cannot survive a merge, so their invisible signature fields are left out —
// or a zip of the individual sealed files, each keeping its own signature.
import { zipSync } from 'fflate';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { loadPdf } from '../pdf/load-pdf';
import type { SigningIdentity } from '../pdf/certificate';
import { signPdf } from '../pdf/pades';

/** Removes signature widgets from a copied page: their signature dictionaries describe another file. */
function dropSignatureWidgets(page: ReturnType<PDFDocument['getPage']>): void {
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return;
  for (let i = annots.size() - 1; i >= 0; i -= 1) {
    const annot = annots.lookup(i);
    if (annot instanceof PDFDict && annot.lookup(PDFName.of('FT')) === PDFName.of('Sig')) annots.remove(i);
  }
  if (annots.size() === 0) page.node.delete(PDFName.of('Annots'));
}

export async function combineSealedDocuments(
  files: Uint8Array[],
  title: string,
  signer: SigningIdentity,
  signature: { name: string; reason: string },
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
  return signPdf(combined, signer, signature);
}

/** A zip of the sealed PDFs, stored uncompressed (PDF streams are compressed already). */
export function zipSealedDocuments(files: { filename: string; bytes: Uint8Array }[]): Uint8Array {
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const file of files) {
    let name = file.filename;
    for (let n = 2; name in entries; n += 1) name = file.filename.replace(/(\.pdf)?$/i, ` (${n}).pdf`);
    entries[name] = [file.bytes, { level: 0 }];
  }
  return zipSync(entries);
}
