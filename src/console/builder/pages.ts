// Draws a template's documents with pdf.js (the browser kit's loader, src/browser/pdf-pages.ts, as on
// the signing page): a page container per page, sized from the stored dimensions so fields can be placed before anything is drawn,
// and each page drawn when it comes near the screen, so a 50-page template opens at once.
import type { ApiAuth } from '../../browser/api';
import { pagesOf } from '../../browser/document-bounds';
import { drawPage, openDocument, pageSize, type PdfDocument } from '../../browser/pdf-pages';
import type { DocumentView } from '../../shared/template-schema';
import { el } from '../../browser/dom';

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
    for (let i = 0; i < pagesOf(doc); i += 1) {
      const size = pageSize(doc, i + 1);
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
  let loading: Promise<PdfDocument> | undefined;
  const draw = async (container: HTMLElement) => {
    loading ??= openDocument(doc.url, { headers: auth.headers(), withCredentials: auth.credentials !== 'omit' });
    await drawPage(await loading, Number(container.dataset.page), container, { attrs: { 'aria-hidden': 'true' } });
  };
  const fail = (error: unknown) => {
    if (section.querySelector('.draw-error')) return;
    section.prepend(
      el('p', {
        class: 'error draw-error',
        text: `This document could not be drawn: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
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
