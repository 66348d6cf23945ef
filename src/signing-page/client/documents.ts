// Shows the submission's documents page by page, as the stored page images or, where there are none,
// drawn with pdf.js (the browser kit's loader, src/browser/pdf-pages.ts), and places the signer's field
// areas over them. Areas: numbers ≤ 1 are fractions of the page, larger ones PDF points from the top-left
// corner (docs/decisions.md › Areas).
import { el } from '../../browser/dom';
import { pagesOf } from '../../browser/document-bounds';
import { drawPage, openDocument, pageSize } from '../../browser/pdf-pages';
import { PAGE_IMAGE_SIZES, pageImageSrcset } from '../../shared/page-images';
import { areaAsFractions, type DocumentView, type TemplateArea } from '../../shared/template-schema';
import { t } from './messages';

/** An area as percentages of its page. */
export function areaBox(area: TemplateArea, page: { width: number; height: number }) {
  const f = areaAsFractions(area, page);
  return { left: f.x * 100, top: f.y * 100, width: f.w * 100, height: f.h * 100 };
}

/**
 * Replaces `root`'s placeholder with a page container per document page (sized from the stored dimensions, so areas can be placed
 * before anything is drawn) and fills them as they come: with the stored page images when the page has
 * them (`page_images`), else with pdf.js. Returns the containers by `<document uuid>:<page number>`.
 */
export function showDocuments(root: HTMLElement, documents: DocumentView[]): Map<string, HTMLElement> {
  root.replaceChildren();
  const pages = new Map<string, HTMLElement>();
  for (const [index, doc] of documents.entries()) {
    const section = el('section', { class: 'document', 'data-document': doc.uuid, 'aria-label': doc.filename });
    for (let i = 0; i < pagesOf(doc); i += 1) {
      const size = pageSize(doc, i + 1);
      const page = el('div', { class: 'page', 'data-page': String(i + 1), style: `aspect-ratio:${size.width}/${size.height}` });
      section.append(page);
      pages.set(`${doc.uuid}:${i + 1}`, page);
    }
    root.append(section);
    if (doc.page_images) showImages(section, doc, pages, index === 0);
    else drawWithPdfJs(section, doc, pages);
  }
  return pages;
}

/**
 * Each page as its stored image at the width the screen needs (srcset; the server preloads the first
 * one with the same candidates). The document's first page loads at once and first in line when it is
 * the first document, the others as they near the screen. An image that fails to load sends the whole
 * document to pdf.js: pdf.js is fetched only then.
 */
function showImages(section: HTMLElement, doc: DocumentView, pages: Map<string, HTMLElement>, first: boolean): void {
  const images: HTMLImageElement[] = [];
  let fellBack = false;
  const fallBack = () => {
    if (fellBack) return;
    fellBack = true;
    for (const image of images) image.remove();
    drawWithPdfJs(section, doc, pages);
  };
  for (let n = 1; n <= pagesOf(doc); n += 1) {
    const container = pages.get(`${doc.uuid}:${n}`);
    if (!container) continue;
    const size = pageSize(doc, n);
    const eager = first && n === 1;
    const image = el('img', {
      class: 'page-image',
      alt: '',
      width: String(Math.round(size.width)),
      height: String(Math.round(size.height)),
      decoding: 'async',
      loading: eager ? 'eager' : 'lazy',
      fetchpriority: eager ? 'high' : undefined,
      sizes: PAGE_IMAGE_SIZES,
      srcset: pageImageSrcset(doc.page_images!, n),
    });
    image.addEventListener('load', () => {
      if (!fellBack) container.dataset.drawn = 'true';
    });
    image.addEventListener('error', fallBack);
    images.push(image);
    container.prepend(image);
  }
}

function drawWithPdfJs(section: HTMLElement, doc: DocumentView, pages: Map<string, HTMLElement>): void {
  void drawDocument(doc, pages).catch((error) => {
    section.prepend(
      el('p', {
        class: 'error',
        text: t('client.document.draw_failed', { error: error instanceof Error ? error.message : String(error) }),
      }),
    );
  });
}

async function drawDocument(doc: DocumentView, pages: Map<string, HTMLElement>): Promise<void> {
  const pdf = await openDocument(doc.url, { withCredentials: true });
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const container = pages.get(`${doc.uuid}:${n}`);
    if (!container) continue;
    await drawPage(pdf, n, container, { maxWidth: 1600 });
  }
}
