// The submission's documents page by page, as the stored page images the HTML holds or, where there are
// none, drawn with pdf.js (the browser kit's loader, src/browser/pdf-pages.ts), and where the signer's
// field areas go on them. Areas: numbers ≤ 1 are fractions of the page, larger ones PDF points from the
// top-left corner (docs/decisions.md › Areas). Under each page lies the page's text layer
// (GET …/documents/:uuid/text), so a screen reader reads the document in order; the page's image or
// canvas is named "Page 2 of 3" (issue 31 › 4).
import { $, el } from '../../browser/dom';
import { drawPage, openDocument } from '../../browser/pdf-pages';
import { areaAsFractions, type DocumentView, type TemplateArea } from '../../shared/template-schema';
import { t } from './messages';

/** An area as percentages of its page. */
export function areaBox(area: TemplateArea, page: { width: number; height: number }) {
  const f = areaAsFractions(area, page);
  return { left: f.x * 100, top: f.y * 100, width: f.w * 100, height: f.h * 100 };
}

/**
 * Takes over the documents the HTML holds in `root` (src/signing-page/document-pages.tsx: a container per
 * page, sized from the stored dimensions, with the page's stored image when the document has them) and
 * fills what is left: documents without images are drawn with pdf.js, and so is any document one of whose
 * images fails. Marks each container `data-drawn` once its page shows. Returns the containers by
 * `<document uuid>:<page number>`.
 */
export function showDocuments(root: HTMLElement, documents: DocumentView[]): Map<string, HTMLElement> {
  $('#documents-loading', root)?.remove();
  const pages = new Map<string, HTMLElement>();
  loadNearImages(root);
  for (const doc of documents) {
    const section = root.querySelector<HTMLElement>(`section.document[data-document="${CSS.escape(doc.uuid)}"]`);
    if (!section) continue;
    for (const page of section.querySelectorAll<HTMLElement>('.page[data-page]')) pages.set(`${doc.uuid}:${page.dataset.page}`, page);
    const images = [...section.querySelectorAll<HTMLImageElement>('img.page-image')];
    images.forEach((image, i) => (image.alt = t('client.document.page', { page: i + 1, total: images.length })));
    if (images.length > 0) watchImages(section, doc, pages, images);
    else drawWithPdfJs(section, doc, pages);
    void addTextLayer(doc, pages);
  }
  return pages;
}

/** How far below the screen a page's image starts loading: one screen ahead of the reader. */
const LOAD_AHEAD = '100% 0px';

/**
 * Gives the pages after the first their images (`data-srcset` → `srcset`) once the first page's image is
 * in (loaded or failed), each as it comes within a screen of view: on a slow line the first page has it
 * to itself, and pages nobody scrolls to cost nothing.
 */
function loadNearImages(root: HTMLElement): void {
  const waiting = [...root.querySelectorAll<HTMLImageElement>('img.page-image[data-srcset]')];
  if (waiting.length === 0) return;
  const load = (image: HTMLImageElement) => {
    image.srcset = image.dataset.srcset ?? '';
    delete image.dataset.srcset;
  };
  const start = () => {
    if (typeof IntersectionObserver === 'undefined') return waiting.forEach(load);
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          load(entry.target as HTMLImageElement);
        }
      },
      { rootMargin: LOAD_AHEAD },
    );
    for (const image of waiting) observer.observe(image);
  };
  const first = root.querySelector<HTMLImageElement>('img.page-image[srcset]');
  if (!first || first.complete) return start();
  first.addEventListener('load', start, { once: true });
  first.addEventListener('error', start, { once: true });
}

/**
 * Marks each page whose image has loaded (now or before the script ran); the first image that fails, now
 * or before, sends the document to pdf.js: pdf.js is fetched only then.
 */
function watchImages(section: HTMLElement, doc: DocumentView, pages: Map<string, HTMLElement>, images: HTMLImageElement[]): void {
  let fellBack = false;
  const fallBack = () => {
    if (fellBack) return;
    fellBack = true;
    for (const image of images) image.remove();
    drawWithPdfJs(section, doc, pages);
  };
  for (const image of images) {
    const container = image.parentElement!;
    const loaded = () => {
      if (!fellBack) container.dataset.drawn = 'true';
    };
    if (image.complete && image.currentSrc) {
      if (image.naturalWidth > 0) loaded();
      else fallBack();
    }
    image.addEventListener('load', loaded);
    image.addEventListener('error', fallBack);
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
    // Under the page's image or canvas (styles.ts › accessibility); pdf.js prepends a canvas drawn later.
    const shown = container.querySelector('canvas, img.page-image');
    if (shown) shown.after(node);
    else container.prepend(node);
  });
}
