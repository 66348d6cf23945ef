// Draws the submission's documents page by page with pdf.js (the browser kit's loader,
// src/browser/pdf-pages.ts) and places the signer's field areas over them. Areas: numbers ≤ 1 are
// fractions of the page, larger ones PDF points from the top-left corner (docs/decisions.md › Areas).
// Under each page image lies the page's text layer (GET …/documents/:uuid/text), so a screen reader
// reads the document in order; the image itself is named "Page 2 of 3" (issue 31 › 4).
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
    void addTextLayer(doc, pages);
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
    const name = t('client.document.page', { page: n, total: pdf.numPages });
    await drawPage(pdf, n, container, { maxWidth: 1600, attrs: { role: 'img', 'aria-label': name } });
  }
}

type TextLayer = { pages: { width: number; height: number; lines: { text: string; x: number; y: number; w: number; h: number }[] }[] };

/**
 * Each page's lines as transparent text at their place under the page image: a screen reader reads
 * them in order, nobody sees them (styles.ts › accessibility). A layer that does not come leaves the
 * image alone.
 */
async function addTextLayer(doc: DocumentView, pages: Map<string, HTMLElement>): Promise<void> {
  const response = await fetch(`${doc.url}/text`, { credentials: 'same-origin' }).catch(() => null);
  if (!response?.ok) return;
  const layer = (await response.json().catch(() => ({ pages: [] }))) as TextLayer;
  layer.pages.forEach((text, i) => {
    const container = pages.get(`${doc.uuid}:${i + 1}`);
    if (!container || text.lines.length === 0) return;
    const node = el('div', { class: 'text-layer', dir: 'auto' });
    for (const line of text.lines) {
      // The font size in units of the page's width (the page is a size container): it scales with the image.
      const size = (line.h * text.height * 100) / text.width;
      node.append(
        el('span', {
          text: line.text,
          style: `left:${line.x * 100}%;top:${line.y * 100}%;width:${line.w * 100}%;font-size:${size.toFixed(3)}cqw`,
        }),
      );
    }
    const canvas = container.querySelector('canvas');
    if (canvas) canvas.after(node);
    else container.prepend(node);
  });
}
