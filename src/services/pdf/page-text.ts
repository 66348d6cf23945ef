// Positioned text of a PDF's pages with pdf.js inside workerd (loaded by pdfjs.ts), for text tags.
// Callers load the file with loadPdf first (bounded structure decoding), so pdf.js only sees files that
// passed it.
import { openPdfJsDocument } from './pdfjs';

/** One run of text in PDF user space: baseline origin (x, y), font size, advance width. */
export type TextRun = { text: string; x: number; y: number; size: number; width: number };
/** A page's runs and its media box [x0, y0, x1, y1]. */
export type PageText = { runs: TextRun[]; view: [number, number, number, number] };

/** Most pages read (a template holds at most 500, decisions.md › Limits). */
const MAX_PAGES = 500;

export async function readPageText(bytes: Uint8Array): Promise<PageText[]> {
  const { task } = await openPdfJsDocument(bytes);
  try {
    const pdf = await task.promise;
    const pages: PageText[] = [];
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_PAGES); n += 1) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const runs: TextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item) || !item.str) continue;
        const [a, b, , , e, f] = item.transform as number[];
        runs.push({ text: item.str, x: e, y: f, size: Math.hypot(a, b) || item.height, width: item.width });
      }
      pages.push({ runs, view: page.view as [number, number, number, number] });
      page.cleanup();
    }
    return pages;
  } finally {
    await task.destroy();
  }
}
