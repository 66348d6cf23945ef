// The signing page in the signer's language in a real browser (issue 31 › 1–3): an Arabic signer gets
// a right-to-left page whose script speaks Arabic (the inlined messages), switches to German on the
// page, and completes the form in German.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startDevServer, type DevServer } from './wrangler-dev';
import { apiOf, launchChromium, letterPdfBase64, preparedSetup } from './e2e-kit';

const PORT = Number(process.env.E2E_LANGUAGES_PORT ?? 8791);
let server: DevServer;
let browser: Browser;

const api = apiOf(() => server);
const call = (method: string, path: string, body?: unknown) => api.call(method, path, body);

describe('signer languages in a real browser', () => {
  beforeAll(async () => {
    server = await startDevServer(PORT, { from: await preparedSetup() });
    browser = await launchChromium();
  });

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await browser?.close();
    await server?.stop();
  });

  it('serves an Arabic signer right to left in Arabic, and completes in German after the switch', async () => {
    const template = await call('POST', '/api/templates/pdf', {
      name: 'Lease',
      documents: [{ name: 'lease', file: await letterPdfBase64(['Agreement']) }],
      submitters: [{ name: 'Tenant' }],
      fields: [{ name: 'Full name', type: 'text', role: 'Tenant', required: true, areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.35, h: 0.04 }] }],
    });
    expect(template.status, template.text).toBe(201);
    const created = await call('POST', '/api/submissions', {
      template_id: template.json.id,
      submitters: [{ role: 'Tenant', email: 'layla@e2e.test', name: 'Layla', language: 'ar' }],
    });
    expect(created.status, created.text).toBe(201);
    const slug = created.json.submitters[0].slug as string;

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${server.base}/s/${slug}`);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await page.getByLabel('قرأت هذا الإفصاح وأوافق على استخدام السجلات والتوقيعات الإلكترونية.').check();
    await page.click('#disclosure-continue');
    await page.waitForSelector('#stepper');
    // The script's own words come from the inlined Arabic messages.
    expect(await page.textContent('#submit')).toBe('إرسال');
    await page.click('#submit');
    expect(await page.textContent('#form-error')).toBe('الحقل «Full name» مطلوب.');

    // Choosing a language changes nothing until the signer presses Change (WCAG 3.2.2: no change of
    // context on input; a closed select fires a change for every arrow key).
    await page.selectOption('#language-select', 'de');
    expect(page.url()).not.toMatch(/[?&]lang=de/);
    await page.click('#language-change');
    await page.waitForURL(/[?&]lang=de/);
    expect(await page.getAttribute('html', 'dir')).toBe('ltr');
    await page.waitForSelector('#stepper');
    expect(await page.textContent('#submit')).toBe('Absenden');
    await page.fill('#field-input', 'Layla Haddad');
    await page.click('#submit');
    await page.waitForSelector('#completed', { timeout: 30_000 });
    expect(await page.textContent('#completed h1')).toBe('Sie haben dieses Formular ausgefüllt');
  });
});
