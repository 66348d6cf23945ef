// Draws the submission's documents page by page with pdf.js (the browser kit's loader,
// src/browser/pdf-pages.ts) and places the signer's field areas over them. Areas: numbers ≤ 1 are
// fractions of the page, larger ones PDF points from the top-left corner (docs/decisions.md › Areas).
import { el } from '../../browser/dom';
import { pagesOf } from '../../browser/document-bounds';
import { drawPage, openDocument, pageSize } from '../../browser/pdf-pages';
import { areaAsFractions, type DocumentView, type TemplateArea } from '../../shared/template-schema';
import { t } from './messages';

/** An area as percentages of its page. */
export function areaBox(area: TemplateArea, page: { width: number; height: number }) {
  const f = areaAsFractions(area, page);
  return { left: f.x * 100, top: f.y * 100, width: f.w * 100, height: f.h * 100 };
}

/**
 * Creates a page container per document page (sized from the stored dimensions, so areas can be placed
 * before pdf.js has drawn anything) and draws the pages as they come. Returns the containers by
 * `<document uuid>:<page number>`.
 */
export function renderDocuments(root: HTMLElement, documents: DocumentView[]): Map<string, HTMLElement> {
  const pages = new Map<string, HTMLElement>();
  for (const doc of documents) {
    const section = el('section', { class: 'document', 'data-document': doc.uuid, 'aria-label': doc.filename });
    for (let i = 0; i < pagesOf(doc); i += 1) {
      const size = pageSize(doc, i + 1);
      const page = el('div', { class: 'page', 'data-page': String(i + 1), style: `aspect-ratio:${size.width}/${size.height}` });
      section.append(page);
      pages.set(`${doc.uuid}:${i + 1}`, page);
    }
    root.append(section);
    void drawDocument(doc, pages).catch((error) => {
      section.prepend(
        el('p', {
          class: 'error',
          text: t('client.document.draw_failed', { error: error instanceof Error ? error.message : String(error) }),
        }),
      );
    });
  }
  return pages;
}

async function drawDocument(doc: DocumentView, pages: Map<string, HTMLElement>): Promise<void> {
  const pdf = await openDocument(doc.url, { withCredentials: true });
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const container = pages.get(`${doc.uuid}:${n}`);
    if (!container) continue;
    await drawPage(pdf, n, container, { maxWidth: 1600 });
  }
}
