// pdf.js in the browser, one loader for every page that draws documents (the signing page, the template
// builder): the library and its worker are served from /vendor/pdfjs (copied from pdfjs-dist by
// scripts/vendor-assets.mjs) and loaded on first use. What it reads is bounded by the limits the service
// stores documents under (src/shared/document-limits.ts): the download stops past the largest file the
// service takes, and no page past the most a template may have is drawn (./document-bounds.ts).
export { pageSize } from '../shared/template-schema';
import { tooLargeSentence } from './document-bounds';
import { el } from './dom';

/* eslint-disable @typescript-eslint/no-explicit-any -- pdf.js is loaded at run time, without its types */
type PdfJs = {
  GlobalWorkerOptions: { workerSrc: string };
  getDocument(options: Record<string, unknown>): {
    promise: Promise<any>;
    onProgress: ((progress: { loaded: number; total?: number }) => void) | null;
    destroy(): Promise<void>;
  };
};
/** pdf.js's document proxy: the pages it can hand out. */
export type PdfDocument = { numPages: number; getPage(number: number): Promise<any> };
/* eslint-enable @typescript-eslint/no-explicit-any */

let pdfjs: Promise<PdfJs> | undefined;
function loadPdfJs(): Promise<PdfJs> {
  const url = '/vendor/pdfjs/pdf.min.mjs';
  pdfjs ??= (import(/* @vite-ignore */ url) as Promise<PdfJs>).then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = '/vendor/pdfjs/pdf.worker.min.mjs';
    return lib;
  });
  return pdfjs;
}

/**
 * Opens the document at `url` with the page's credentials (its cookie, or `headers` such as a bearer
 * token). pdf.js reports the size it learns (Content-Length) and the bytes it has: past
 * DOCUMENT_LIMITS.fileBytes the download is stopped and the promise rejects with a sentence.
 */
export async function openDocument(
  url: string,
  request: { headers?: Record<string, string>; withCredentials: boolean },
): Promise<PdfDocument> {
  const lib = await loadPdfJs();
  const task = lib.getDocument({ url, httpHeaders: request.headers, withCredentials: request.withCredentials, isEvalSupported: false });
  let refused: string | null = null;
  task.onProgress = ({ loaded, total }) => {
    refused ??= tooLargeSentence(Math.max(loaded, total ?? 0));
    if (refused) void task.destroy();
  };
  try {
    return await task.promise;
  } catch (error) {
    throw refused ? new Error(refused) : error;
  }
}

/**
 * Draws page `number` into `container` as a canvas as wide as the container (at most `maxWidth` CSS
 * pixels), at the screen's pixel density up to 2, and marks the container `data-drawn`.
 */
export async function drawPage(
  pdf: PdfDocument,
  number: number,
  container: HTMLElement,
  options: { maxWidth?: number; attrs?: Record<string, string> } = {},
): Promise<void> {
  const page = await pdf.getPage(number);
  const width = Math.min(container.clientWidth || 800, options.maxWidth ?? Infinity);
  const base = page.getViewport({ scale: 1 });
  const scale = (width / base.width) * Math.min(window.devicePixelRatio || 1, 2);
  const viewport = page.getViewport({ scale });
  const canvas = el('canvas', { width: String(Math.floor(viewport.width)), height: String(Math.floor(viewport.height)), ...options.attrs });
  container.prepend(canvas);
  await page.render({ canvas, canvasContext: canvas.getContext('2d'), viewport }).promise;
  container.dataset.drawn = 'true';
}
