// Positioned text of a PDF's pages with pdf.js (its legacy build) inside workerd: the "fake worker"
// runs pdf.js's worker code on this thread (`globalThis.pdfjsWorker`), and the canvas classes the
// display layer names at load time are stubbed, since text extraction never draws. Callers load the
// file with loadPdf first (bounded structure decoding), so pdf.js only sees files that passed it.

/** One run of text in PDF user space: baseline origin (x, y), font size, advance width. */
export type TextRun = { text: string; x: number; y: number; size: number; width: number };
/** A page's runs and its media box [x0, y0, x1, y1]. */
export type PageText = { runs: TextRun[]; view: [number, number, number, number] };

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loaded: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  loaded ??= (async () => {
    // Why stubs: pdf.js's display module constructs DOMMatrix at import; no drawing happens here.
    const scope = globalThis as Record<string, unknown>;
    scope.DOMMatrix ??= class DOMMatrix {};
    scope.ImageData ??= class ImageData {};
    scope.Path2D ??= class Path2D {};
    scope.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loaded;
}

/** Most pages read (a template holds at most 500, decisions.md › Limits). */
const MAX_PAGES = 500;

export async function readPageText(bytes: Uint8Array): Promise<PageText[]> {
  const pdfjs = await loadPdfJs();
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    useWorkerFetch: false,
    disableFontFace: true,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
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
