// Positioned text of a PDF's pages with pdf.js inside workerd (loaded by pdfjs.ts), for text tags.
// pdf.js only sees files whose pdf-lib reading (loadPdf: bounded structure decoding) the caller hands in,
// and whose pages pass READING_LIMITS here first.
import type { PDFDocument } from 'pdf-lib';
import { openPdfJsDocument } from './pdfjs';
import { assertWithinReadingLimits } from './reading-limits';

/** One run of text in PDF user space: baseline origin (x, y), font size, advance width. */
export type TextRun = { text: string; x: number; y: number; size: number; width: number };
/** A page's runs and its media box [x0, y0, x1, y1]. */
export type PageText = { runs: TextRun[]; view: [number, number, number, number] };

/** Most pages read (a template holds at most 500, decisions.md › Limits). */
const MAX_PAGES = 500;

/**
 * The text runs of each page (the first MAX_PAGES). `loaded` is `bytes` as loadPdf read them; a file past
 * READING_LIMITS throws ReadingLimitExceeded before pdf.js opens it.
 */
export async function readPageText(bytes: Uint8Array, loaded: PDFDocument): Promise<PageText[]> {
  assertWithinReadingLimits(loaded, MAX_PAGES);
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
