// Joins a template's PDFs into one file for download (spec › Template › download_url).
import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import { loadPdf } from './load-pdf';

export async function bundlePdfs(files: Uint8Array[], title: string): Promise<Uint8Array> {
  const bundle = await PDFDocument.create();
  bundle.setTitle(title);
  for (const bytes of files) {
    const source = await loadPdf(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    const pages = await bundle.copyPages(source, source.getPageIndices());
    for (const page of pages) bundle.addPage(page);
  }
  return bundle.save();
}
