// A signer on a phone (issue 31 › 6), in Chromium at 390×844 and 3 device pixels per CSS pixel: once the
// template's page images are drawn (in the background after the upload), the link opens on the first
// page's image, chosen at the width the screen needs, while the disclosure still waits; neither pdf.js
// nor the PDF is fetched. Timings are bench/signer-journey's; this file checks what is loaded and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiOf, launchChromium, letterPdfBase64, sharedDevServer, type SharedServer } from './e2e-kit';

let server: SharedServer;
let browser: Browser;
const { ok } = apiOf(() => server);

describe('a signer on a phone', () => {
  beforeAll(async () => {
    server = await sharedDevServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sees the first page as an image at 800 px before accepting the disclosure, without pdf.js or the PDF', async () => {
    const template = await ok('POST', '/api/templates/pdf', {
      name: 'Phone journey',
      documents: [{ name: 'contract', file: await letterPdfBase64(['Page one', 'Page two', 'Page three']) }],
      fields: [{ name: 'Full name', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.5, w: 0.3, h: 0.04 }] }],
    });
    const submission = await ok('POST', '/api/submissions', {
      template_id: template.id,
      send_email: false,
      submitters: [{ role: 'First Party', email: 'phone.journey@e2e.test' }],
    });
    const link = submission.submitters[0].signing_url.replace(/^https?:\/\/[^/]+/, server.base);
    // The upload queued the drawing of its page images; wait until the signer's page holds them. The
    // suite's other files queue their uploads' batches on the same local queue, which draws one batch at a
    // time: under a loaded run that backlog alone took over two minutes, so the wait allows six.
    let drawn = false;
    for (let i = 0; i < 720 && !drawn; i += 1) {
      drawn = (await (await fetch(link)).text()).includes('class="page-image"');
      if (!drawn) await new Promise((r) => setTimeout(r, 500));
    }
    expect(drawn).toBe(true);

    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname + new URL(request.url()).search));
    await page.goto(link);
    await page.waitForSelector('.page[data-page="1"][data-drawn="true"] img.page-image', { timeout: 60_000 });
    expect(await page.isVisible('#disclosure')).toBe(true);
    const chosen = await page.$eval('.page[data-page="1"] img.page-image', (img) => (img as unknown as { currentSrc: string }).currentSrc);
    expect(new URL(chosen).searchParams.get('w')).toBe('800');
    // The image was asked for once, and nothing else drew the page.
    expect(requested.filter((p) => p.includes('/pages/1?w=')).length).toBe(1);
    expect(requested.some((p) => p.startsWith('/vendor/pdfjs/'))).toBe(false);
    expect(requested.some((p) => /\/documents\/[^/]+$/.test(p.split('?')[0]))).toBe(false);
    await context.close();
  }, 480_000);
});
