// HTML → PDF through Browser Rendering (spec › Template document: `.html` rendered to PDF): tenant HTML
// is printed with script disabled and every outside request aborted (sandboxed-page.ts).
import type { Browser, PaperFormat } from '@cloudflare/puppeteer';
import { RENDER_ORIGIN, sandboxedPage } from './sandboxed-page';

/** Page sizes accepted by POST /api/templates/html (DocuSeal's list; puppeteer's paper formats). */
export const PAGE_SIZES = ['Letter', 'Legal', 'Tabloid', 'Ledger', 'A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export const HTML_LIMITS = {
  /** Characters of one document's HTML. */
  documentChars: 2_000_000,
  /** Characters of the header or the footer. */
  headerFooterChars: 50_000,
  /** The whole JSON body. */
  requestBytes: 10 * 1024 * 1024,
  /** Loading plus printing one document. */
  renderMs: 30_000,
} as const;

export type HtmlDocument = { html: string; header?: string; footer?: string; size: PageSize };

export class HtmlRenderTimeout extends Error {}

/**
 * Chromium renders header and footer templates at a tiny default size and with no margins; wrapping
 * them gives a readable 9 pt line across the page. Their `pageNumber` / `totalPages` classes still work.
 */
function headerFooterTemplate(html: string | undefined): string {
  if (!html) return '<span></span>';
  return `<div style="font-size:9pt;width:100%;margin:0 15mm;-webkit-print-color-adjust:exact">${html}</div>`;
}

export type RenderedPdf = { pdf: Uint8Array /** Requests the document made and did not get. */; blocked: string[] };

/**
 * The print options for one document (exported so bench/docgen's floor prints with the very same ones):
 * the header and footer repeat on every page, with room made for them in the margin.
 */
export function printOptions(document: HtmlDocument) {
  return {
    format: document.size.toLowerCase() as PaperFormat,
    printBackground: true,
    displayHeaderFooter: Boolean(document.header || document.footer),
    headerTemplate: headerFooterTemplate(document.header),
    footerTemplate: headerFooterTemplate(document.footer),
    margin: {
      top: document.header ? '25mm' : '15mm',
      bottom: document.footer ? '25mm' : '15mm',
      left: '15mm',
      right: '15mm',
    },
  };
}

/** Prints one HTML document to PDF in `browser`; the header and footer repeat on every page. */
export async function renderHtmlToPdf(browser: Browser, document: HtmlDocument): Promise<RenderedPdf> {
  const { page, blocked } = await sandboxedPage(browser, {
    javascript: false,
    resources: new Map([['/document.html', { contentType: 'text/html; charset=utf-8', body: document.html }]]),
  });
  try {
    page.setDefaultTimeout(HTML_LIMITS.renderMs);
    try {
      // `load`: every (aborted) subresource has settled, so nothing is still pending when printing.
      await page.goto(`${RENDER_ORIGIN}/document.html`, { waitUntil: 'load', timeout: HTML_LIMITS.renderMs });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw new HtmlRenderTimeout((error as Error).message);
      throw error;
    }
    const pdf = await page.pdf({ ...printOptions(document), timeout: HTML_LIMITS.renderMs });
    return { pdf: new Uint8Array(pdf), blocked };
  } finally {
    await page.close().catch(() => {});
  }
}
