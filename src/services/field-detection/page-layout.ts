// The text and drawn shapes of a PDF's pages, read with pdf.js inside the Worker (loaded by
// ../pdf/pdfjs.ts): what field detection looks at. The pages are measured against READING_LIMITS first
// (../pdf/reading-limits.ts), so pdf.js never decodes or draws more than they allow.
import { loadPdf } from '../pdf/load-pdf';
import { openPdfJsDocument, type PdfJs } from '../pdf/pdfjs';
import { assertWithinReadingLimits } from '../pdf/reading-limits';

/** How many pages are read. */
export const MAX_PAGES = 50;

/** A run of text, in PDF points with the origin at the page's top-left corner (y grows downwards). */
export type TextRun = { text: string; x: number; y: number; w: number; h: number };
/** The bounding box of a stroked or filled path, same coordinates. */
export type Shape = { x: number; y: number; w: number; h: number };
export type PageLayout = { page: number; width: number; height: number; texts: TextRun[]; shapes: Shape[] };

/** The document cannot be read for field detection; its message is the sentence shown for it. */
export class UnreadableForDetection extends Error {}

type Matrix = [number, number, number, number, number, number];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** The shapes a page's operator list draws, with the graphics state's matrix applied. */
function shapesOf(OPS: PdfJs['OPS'], fnArray: number[], argsArray: unknown[], base: Matrix): Shape[] {
  const shapes: Shape[] = [];
  const stack: Matrix[] = [];
  let ctm = base;
  fnArray.forEach((fn, i) => {
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? base;
    else if (fn === OPS.transform) ctm = multiply(ctm, argsArray[i] as Matrix);
    else if (fn === OPS.constructPath) {
      const minMax = (argsArray[i] as [number, unknown, ArrayLike<number> | null])[2];
      if (!minMax || !Number.isFinite(minMax[0])) return;
      const [x0, y0] = apply(ctm, minMax[0], minMax[1]);
      const [x1, y1] = apply(ctm, minMax[2], minMax[3]);
      shapes.push({ x: Math.min(x0, x1), y: Math.min(y0, y1), w: Math.abs(x1 - x0), h: Math.abs(y1 - y0) });
    }
  });
  return shapes;
}

/** Every page's text runs and shapes (the first MAX_PAGES pages). */
export async function readPageLayouts(bytes: Uint8Array): Promise<PageLayout[]> {
  try {
    assertWithinReadingLimits(await loadPdf(bytes, { ignoreEncryption: true, updateMetadata: false }), MAX_PAGES);
  } catch (error) {
    throw new UnreadableForDetection(
      `The PDF cannot be read for detection: ${error instanceof Error && error.message ? error.message : 'its structure is broken'}.`,
    );
  }
  const { pdfjs, task } = await openPdfJsDocument(bytes);
  try {
    const doc = await task.promise;
    const layouts: PageLayout[] = [];
    for (let number = 1; number <= Math.min(doc.numPages, MAX_PAGES); number += 1) {
      const page = await doc.getPage(number);
      // The viewport's transform maps user space to top-left origin points, /Rotate and /CropBox included.
      const viewport = page.getViewport({ scale: 1 });
      const toPage = viewport.transform as Matrix;
      const content = await page.getTextContent();
      const texts: TextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const m = multiply(toPage, item.transform as Matrix);
        const h = Math.hypot(m[2], m[3]) || item.height;
        // Horizontal text only: the baseline runs along the x axis.
        if (Math.abs(m[1]) > 0.01 * Math.abs(m[0])) continue;
        texts.push({ text: item.str, x: m[4], y: m[5] - h, w: item.width, h });
      }
      // The page's own content only: widget appearances are existing form fields, which AcroForm import reads.
      const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
      const shapes = shapesOf(pdfjs.OPS, ops.fnArray, ops.argsArray, toPage);
      layouts.push({ page: number, width: viewport.width, height: viewport.height, texts, shapes });
      page.cleanup();
    }
    return layouts;
  } catch (error) {
    throw new UnreadableForDetection(
      `The PDF cannot be read for detection: ${error instanceof Error && error.message ? error.message : 'pdf.js could not parse it'}.`,
    );
  } finally {
    await task.destroy();
  }
}
