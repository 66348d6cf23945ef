// Several HTML documents printed to PDF in one Browser Rendering session (HTML templates, DOCX templates
// and their per-submission copies); an unavailable browser is a 503, a spent launch budget a 429, a slow
// document a 422 naming it.
import { ApiError, unprocessable } from '../../lib/errors';
import { BROWSER_LAUNCHES, BrowserLaunchesExhausted, type BrowserLauncher } from './browser-launches';
import { HtmlRenderTimeout, HTML_LIMITS, renderHtmlToPdf, type PageSize } from './html-to-pdf';
import { closeBrowser, openBrowser, RenderingUnavailable } from './sandboxed-page';
import { secondsUntil } from '../../lib/time';

/** Prints every document in one browser session, in order (HTML templates and converted DOCX files). */
export async function renderDocuments(
  launcher: BrowserLauncher,
  input: { header?: string; footer?: string; size: PageSize; documents: { html: string; header?: string; footer?: string }[] },
): Promise<Uint8Array[]> {
  let browser;
  try {
    browser = await openBrowser(launcher, 'request');
  } catch (error) {
    if (error instanceof BrowserLaunchesExhausted) {
      const seconds = secondsUntil(error.retryAt);
      throw new ApiError(
        429,
        `This account has started ${BROWSER_LAUNCHES.perWindow} rendering browsers in the last minute, the most it may; HTML and DOCX documents can be rendered again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
        {},
        { 'Retry-After': String(seconds) },
      );
    }
    if (error instanceof RenderingUnavailable) {
      console.error(error.message);
      throw new ApiError(503, 'HTML could not be rendered because the rendering browser is unavailable; retry in a minute.');
    }
    throw error;
  }
  try {
    const pdfs: Uint8Array[] = [];
    for (const [i, document] of input.documents.entries()) {
      try {
        const { pdf } = await renderHtmlToPdf(browser, {
          html: document.html,
          header: document.header ?? input.header,
          footer: document.footer ?? input.footer,
          size: input.size,
        });
        pdfs.push(pdf);
      } catch (error) {
        if (error instanceof HtmlRenderTimeout) {
          throw unprocessable(
            `documents[${i}] could not be rendered within ${HTML_LIMITS.renderMs / 1000} seconds; simplify or split the HTML.`,
          );
        }
        throw error;
      }
    }
    return pdfs;
  } finally {
    await closeBrowser(browser);
  }
}
