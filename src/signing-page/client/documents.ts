// Draws the submission's documents page by page with pdf.js (served from /vendor/pdfjs) and places the
// signer's field areas over them. Areas: numbers ≤ 1 are fractions of the page, larger ones PDF points
// from the top-left corner of the visible page (docs/decisions.md › Areas).
import { el } from './api';

export type Area = { page: number; x: number; y: number; w: number; h: number; attachment_uuid: string };
export type Doc = { uuid: string; filename: string; page_count: number; page_dimensions: { width: number; height: number }[]; url: string };

/** An area as percentages of its page. */
export function areaBox(area: Area, page: { width: number; height: number }) {
  const fractions = [area.x, area.y, area.w, area.h].every((n) => n <= 1);
  const sx = fractions ? 1 : 1 / page.width;
  const sy = fractions ? 1 : 1 / page.height;
  return { left: area.x * sx * 100, top: area.y * sy * 100, width: area.w * sx * 100, height: area.h * sy * 100 };
}

type PdfJs = {
  GlobalWorkerOptions: { workerSrc: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pdf.js's document proxy, loaded at run time without its types
  getDocument(options: Record<string, unknown>): { promise: Promise<any> };
};

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
 * Creates a page container per document page (sized from the stored dimensions, so areas can be placed
 * before pdf.js has drawn anything) and draws the pages as they come. Returns the containers by
 * `<document uuid>:<page number>`.
 */
export function renderDocuments(root: HTMLElement, documents: Doc[]): Map<string, HTMLElement> {
  const pages = new Map<string, HTMLElement>();
  for (const doc of documents) {
    const section = el('section', { class: 'document', 'data-document': doc.uuid, 'aria-label': doc.filename });
    for (let i = 0; i < doc.page_count; i += 1) {
      const size = doc.page_dimensions[i] ?? doc.page_dimensions[0] ?? { width: 612, height: 792 };
      const page = el('div', { class: 'page', 'data-page': String(i + 1), style: `aspect-ratio:${size.width}/${size.height}` });
      section.append(page);
      pages.set(`${doc.uuid}:${i + 1}`, page);
    }
    root.append(section);
    void drawDocument(doc, pages).catch((error) => {
      section.prepend(el('p', { class: 'error', text: `This document could not be drawn: ${error instanceof Error ? error.message : error}` }));
    });
  }
  return pages;
}

async function drawDocument(doc: Doc, pages: Map<string, HTMLElement>): Promise<void> {
  const lib = await loadPdfJs();
  const pdf = await lib.getDocument({ url: doc.url, isEvalSupported: false, withCredentials: true }).promise;
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const container = pages.get(`${doc.uuid}:${n}`);
    if (!container) continue;
    const page = await pdf.getPage(n);
    const width = Math.min(container.clientWidth || 800, 1600);
    const base = page.getViewport({ scale: 1 });
    const scale = (width / base.width) * Math.min(window.devicePixelRatio || 1, 2);
    const viewport = page.getViewport({ scale });
    const canvas = el('canvas', { width: String(Math.floor(viewport.width)), height: String(Math.floor(viewport.height)) });
    container.prepend(canvas);
    await page.render({ canvas, canvasContext: canvas.getContext('2d'), viewport }).promise;
    container.dataset.drawn = 'true';
  }
}
