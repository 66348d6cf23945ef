// PDF pages → PNG or WebP images through Browser Rendering: pdf.js (the copy the signing page uses, from the
// ASSETS binding) draws each page on a canvas in a sandboxed page that can reach nothing else.
import type { Browser } from '@cloudflare/puppeteer';
import { RENDER_ORIGIN, sandboxedPage, type Resource } from './sandboxed-page';

/** Loading the document plus drawing one page. */
const RENDER_MS = 30_000;

/**
 * Our own renderer page. pdf.js runs its worker code on the main thread (`globalThis.pdfjsWorker`),
 * so every byte the page needs is one of the resources below; the PDF is never given script
 * (isEvalSupported false, no scripting or XFA).
 */
export const RENDERER_HTML = `<!doctype html><meta charset="utf-8"><body><script type="module">
import * as pdfjs from '/pdf.min.mjs';
import * as worker from '/pdf.worker.min.mjs';
globalThis.pdfjsWorker = worker;
pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.min.mjs';
let pdf;
window.openDocument = async () => {
  const data = new Uint8Array(await (await fetch('/document.pdf')).arrayBuffer());
  pdf = await pdfjs.getDocument({ data, isEvalSupported: false, enableXfa: false, useSystemFonts: true }).promise;
  return pdf.numPages;
};
window.renderPage = async (number, width, type) => {
  const page = await pdf.getPage(number);
  const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = Math.max(1, Math.round(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas, canvasContext: context, viewport }).promise;
  page.cleanup();
  return canvas.toDataURL(type === 'webp' ? 'image/webp' : 'image/png', 0.8);
};
window.rendererReady = true;
</script>`;

async function asset(assets: Fetcher, path: string): Promise<Resource> {
  const response = await assets.fetch(`https://assets.invalid${path}`);
  if (!response.ok) throw new Error(`The asset ${path} is missing (${response.status}); run node scripts/vendor-assets.mjs.`);
  return { contentType: 'text/javascript; charset=utf-8', body: new Uint8Array(await response.arrayBuffer()) };
}

function decodeDataUrl(dataUrl: string): Uint8Array {
  const binary = atob(dataUrl.slice(dataUrl.indexOf(',') + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The image formats drawn: PNG (the API's thumbnails) and WebP at quality 0.8 (the signing page's page
 * images, issue 31 › 6: fewer bytes on a phone's line than the PNG for the same page).
 */
export type ImageFormat = 'png' | 'webp';

/** One image to draw: a page (numbered from 1) at a width in pixels, in a format (PNG unless said). */
export type PageImage = { page: number; width: number; format?: ImageFormat };

/**
 * Draws `images` of `pdf`, one browser page for the whole document (it is loaded once whatever the
 * pages and widths); `onImage` receives each image as soon as it is drawn (so a caller can store it at once).
 */
export async function renderPageImages(
  browser: Browser,
  assets: Fetcher,
  pdf: Uint8Array,
  images: PageImage[],
  onImage: (image: PageImage, bytes: Uint8Array) => Promise<void>,
): Promise<void> {
  const [library, worker] = await Promise.all([
    asset(assets, '/vendor/pdfjs/pdf.min.mjs'),
    asset(assets, '/vendor/pdfjs/pdf.worker.min.mjs'),
  ]);
  const { page } = await sandboxedPage(browser, {
    javascript: true,
    resources: new Map<string, Resource>([
      ['/renderer.html', { contentType: 'text/html; charset=utf-8', body: RENDERER_HTML }],
      ['/pdf.min.mjs', library],
      ['/pdf.worker.min.mjs', worker],
      ['/document.pdf', { contentType: 'application/pdf', body: pdf }],
    ]),
  });
  try {
    page.setDefaultTimeout(RENDER_MS);
    await page.goto(`${RENDER_ORIGIN}/renderer.html`, { waitUntil: 'load' });
    await page.waitForFunction('window.rendererReady === true');
    await page.evaluate('window.openDocument()');
    for (const image of images) {
      const format = image.format === 'webp' ? 'webp' : 'png';
      const dataUrl = (await page.evaluate(`window.renderPage(${Number(image.page)}, ${Number(image.width)}, '${format}')`)) as string;
      await onImage(image, decodeDataUrl(dataUrl));
    }
  } finally {
    await page.close().catch(() => {});
  }
}
