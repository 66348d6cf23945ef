// A branded signing page in a real browser (issue 17 bar): the brand's title, header colour and logo, and
// no powered-by line when the brand says show_branding false; a screenshot of it is saved and not empty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiOf, launchChromium, letterPdfBase64, sharedDevServer, type SharedServer } from './e2e-kit';

let server: SharedServer;
let browser: Browser;
let dir: string;

const { ok: call } = apiOf(() => server);

describe('a branded signing page in a real browser', () => {
  beforeAll(async () => {
    server = await sharedDevServer();
    browser = await launchChromium();
    dir = mkdtempSync(path.join(tmpdir(), 'e2e-branding-'));
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the brand’s title, header colour and logo, without the powered-by line', async () => {
    // A logo the page may load under its CSP (img-src 'self'): an image the dev server itself serves.
    const logoUrl = `${server.base}/vendor/swagger-ui/favicon-32x32.png`;
    const { brand } = await call('POST', '/api/brands', {
      name: `E2E brand ${Date.now()}`,
      branding: {
        display_title: 'Tenancy agreement',
        company_name: 'Acme Lettings',
        header_color: '#12345a',
        primary_button_color: '#0f766e',
        logo_url: logoUrl,
        show_branding: false,
      },
    });
    const template = await call('POST', '/api/templates/pdf', {
      name: 'Plain template',
      documents: [{ name: 'contract', file: await letterPdfBase64() }],
      submitters: [{ name: 'Tenant' }],
      fields: [{ name: 'Full name', type: 'text', role: 'Tenant', required: true, areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
      preferences: { brand_id: brand.id },
    });
    const submission = await call('POST', '/api/submissions', {
      template_id: template.id,
      send_email: false,
      submitters: [{ role: 'Tenant', email: 'branded@e2e.test' }],
    });

    const page = await browser.newPage();
    await page.goto(submission.submitters[0].signing_url);
    await page.waitForSelector('header.brand img.logo');
    expect(await page.title()).toBe('Tenancy agreement - Acme Lettings');
    // #12345a as the browser computes it.
    // Expressions as strings: they run in the page, and this file is type-checked without the DOM library.
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('header.brand')).backgroundColor")).toBe('rgb(18, 52, 90)');
    const logo = await page.waitForFunction(
      "(() => { const img = document.querySelector('header.brand img.logo'); return img && img.complete && img.naturalWidth > 0 ? { src: img.src, alt: img.alt } : null; })()",
    );
    expect(await logo.jsonValue()).toEqual({ src: logoUrl, alt: 'Acme Lettings' });
    expect(await page.$('footer.powered')).toBeNull();
    expect(await page.content()).not.toContain('Powered by');

    const shot = path.join(dir, 'branded-signing-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(0);
    await page.close();
  });
});
