// Draws a template's documents with pdf.js (served from /vendor/pdfjs, as on the signing page): a page
// container per page, sized from the stored dimensions so fields can be placed before anything is drawn,
// and each page drawn when it comes near the screen, so a 50-page template opens at once.
import type { ApiAuth } from './api-client';
import type { DocumentView } from '../../shared/template-schema';
import { el } from './dom';

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

/** `<document uuid>:<page>` → the page's container (position: relative; areas go inside). */
export type PageMap = Map<string, HTMLElement>;

export function pageKey(documentUuid: string, page: number): string {
  return `${documentUuid}:${page}`;
}

export function renderPages(root: HTMLElement, documents: DocumentView[], auth: ApiAuth): PageMap {
  const pages: PageMap = new Map();
  for (const doc of documents) {
    const section = el('section', { class: 'document', 'aria-label': `Document ${doc.filename}` });
    const containers: HTMLElement[] = [];
    for (let i = 0; i < doc.page_count; i += 1) {
      const size = doc.page_dimensions[i] ?? doc.page_dimensions[0] ?? { width: 612, height: 792 };
      const page = el('div', {
        class: 'page',
        role: 'region',
        'aria-label': `${doc.filename}, page ${i + 1}`,
        'data-document': doc.uuid,
        'data-page': String(i + 1),
        style: `aspect-ratio:${size.width}/${size.height}`,
      });
      section.append(page);
      containers.push(page);
      pages.set(pageKey(doc.uuid, i + 1), page);
    }
    root.append(section);
    drawWhenVisible(doc, containers, auth, section);
  }
  return pages;
}

function drawWhenVisible(doc: DocumentView, containers: HTMLElement[], auth: ApiAuth, section: HTMLElement): void {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see PdfJs
  let loading: Promise<any> | undefined;
  const open = () =>
    (loading ??= loadPdfJs().then(
      (lib) => lib.getDocument({ url: doc.url, httpHeaders: auth.headers(), withCredentials: auth.credentials !== 'omit', isEvalSupported: false }).promise,
    ));
  const draw = async (container: HTMLElement) => {
    const pdf = await open();
    const page = await pdf.getPage(Number(container.dataset.page));
    const base = page.getViewport({ scale: 1 });
    const scale = ((container.clientWidth || 800) / base.width) * Math.min(window.devicePixelRatio || 1, 2);
    const viewport = page.getViewport({ scale });
    const canvas = el('canvas', { width: String(Math.floor(viewport.width)), height: String(Math.floor(viewport.height)), 'aria-hidden': 'true' });
    container.prepend(canvas);
    await page.render({ canvas, canvasContext: canvas.getContext('2d'), viewport }).promise;
    container.dataset.drawn = 'true';
  };
  const fail = (error: unknown) => {
    if (section.querySelector('.draw-error')) return;
    section.prepend(el('p', { class: 'error draw-error', text: `This document could not be drawn: ${error instanceof Error ? error.message : String(error)}` }));
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        draw(entry.target as HTMLElement).catch(fail);
      }
    },
    { rootMargin: '600px 0px' },
  );
  for (const container of containers) observer.observe(container);
}
