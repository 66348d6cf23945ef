// Joins a template's PDFs into one file for download (spec › Template › download_url).
import { ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFName, type PDFPage } from 'pdf-lib';
import { loadPdf } from './load-pdf';

/**
 * Removes signature widgets from a copied page: their signature dictionaries describe another file,
 * whose bytes their /ByteRange no longer frames, so a viewer would report them broken.
 */
export function dropSignatureWidgets(page: PDFPage): void {
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return;
  for (let i = annots.size() - 1; i >= 0; i -= 1) {
    const annot = annots.lookup(i);
    if (annot instanceof PDFDict && annot.lookup(PDFName.of('FT')) === PDFName.of('Sig')) annots.remove(i);
  }
  if (annots.size() === 0) page.node.delete(PDFName.of('Annots'));
}

/** The files' pages in one PDF; a signed file's signatures stay with the file itself (issue 33 › 6). */
export async function bundlePdfs(files: Uint8Array[], title: string): Promise<Uint8Array> {
  const bundle = await PDFDocument.create();
  bundle.setTitle(title);
  for (const bytes of files) {
    const source = await loadPdf(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    const pages = await bundle.copyPages(source, source.getPageIndices());
    for (const page of pages) {
      dropSignatureWidgets(page);
      bundle.addPage(page);
    }
  }
  return bundle.save();
}
