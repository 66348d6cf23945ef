// pdf.js inside workerd, one loader for every reader here (page text for text tags, page layout for field
// detection): the legacy build, loaded on first use so Workers that never read a page never evaluate it.
// Its "fake worker" runs the worker code on this thread (`globalThis.pdfjsWorker`; workerd has no Worker
// threads), and the canvas classes its display module names at load time are inert stand-ins, since
// nothing here draws. Callers measure the file with loadPdf (bounded structure decoding) and
// assertWithinReadingLimits (reading-limits.ts: what pdf.js will decode and draw) first.
import { READING_LIMITS } from './reading-limits';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfJsLoadingTask = ReturnType<PdfJs['getDocument']>;

let loaded: Promise<PdfJs> | undefined;

export function loadPdfJs(): Promise<PdfJs> {
  loaded ??= (async () => {
    // pdf.js's display module constructs DOMMatrix at import and names the others for canvas drawing.
    const scope = globalThis as Record<string, unknown>;
    scope.DOMMatrix ??= class DOMMatrix {};
    scope.ImageData ??= class ImageData {};
    scope.Path2D ??= class Path2D {};
    scope.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loaded;
}

/**
 * Opens `bytes` with what every reader here needs and nothing more: no eval, no fetching (fonts, CMaps),
 * no font faces, no XFA, no canvas, no image pixels. The caller destroys the task when done.
 */
export async function openPdfJsDocument(bytes: Uint8Array): Promise<{ pdfjs: PdfJs; task: PdfJsLoadingTask }> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    data: bytes.slice(),
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    // Text and path outlines only: images are never decoded (pdf.js skips them with a warning).
    maxImageSize: READING_LIMITS.imagePixels,
    verbosity: 0,
  });
  return { pdfjs, task };
}
