// The designed signing page, looked at (issue 31 › 5): each state a signer meets (disclosure, form,
// field error, refusal in a dialog, completed, declined) in Chromium at phone (390×844) and desktop
// (1280×800) widths, left to right (en) and right to left (ar). Every state is checked for 44 px touch
// targets, 4.5:1 button text and no sideways scrolling; with UPDATE_SCREENSHOTS=1 the screenshots are
// written to docs/screenshots/ (docs/signing-page.md shows them), else to a temporary folder.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiOf, launchChromium, letterPdfBase64, sharedDevServer, uniqueEmail, type SharedServer } from './e2e-kit';

/** The server looked at: the run's shared one, or a running `wrangler dev` (E2E_BASE and E2E_TOKEN) to iterate on the design. */
let server: Pick<SharedServer, 'base' | 'token'>;
let browser: Browser;
const api = apiOf(() => server);

const OUT = process.env.UPDATE_SCREENSHOTS ? path.resolve('docs/screenshots') : mkdtempSync(path.join(tmpdir(), 'signing-screens-'));

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

/** What a state must hold: no control under 44 px, button text at 4.5:1, nothing wider than the screen. */
type Audit = { small: string[]; lowContrast: string[]; overflow: number };

// Runs in the page; a string, since this file is type-checked without the DOM library.
const AUDIT = `(() => {
  const lum = (rgb) => {
    const [r, g, b] = rgb.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map((v) => { const c = Number(v) / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [l, d] = [lum(a), lum(b)].sort((x, y) => y - x); return (l + 0.05) / (d + 0.05); };
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '');
  const controls = [...document.querySelectorAll('button, a.button, input:not([type=checkbox]):not([type=radio]):not([type=hidden]), select, textarea, summary, .consent')].filter(visible);
  const small = controls.filter((e) => { const r = e.getBoundingClientRect(); return r.height < 44 || (e.matches('button, a.button') && r.width < 44); })
    .map((e) => name(e) + ' ' + Math.round(e.getBoundingClientRect().width) + 'x' + Math.round(e.getBoundingClientRect().height));
  const lowContrast = [...document.querySelectorAll('button:not(:disabled), a.button')].filter(visible)
    .filter((e) => { const s = getComputedStyle(e); return s.backgroundColor !== 'rgba(0, 0, 0, 0)' && ratio(s.color, s.backgroundColor) < 4.5; })
    .map((e) => name(e) + ' ' + getComputedStyle(e).color + ' on ' + getComputedStyle(e).backgroundColor);
  return { small, lowContrast, overflow: document.documentElement.scrollWidth - window.innerWidth };
})()`;

async function look(page: Page, file: string): Promise<Audit> {
  // Let layout and the smooth scroll to the current field settle, and the caret not blink into the picture.
  await page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(OUT, `${file}.png`) });
  return (await page.evaluate(AUDIT)) as Audit;
}

async function newSigner(locale: string): Promise<string> {
  const template = await api.ok('POST', '/api/templates/pdf', {
    name: 'Tenancy agreement',
    documents: [{ name: 'tenancy', file: await letterPdfBase64(['Tenancy agreement', '']) }],
    submitters: [{ name: 'Tenant' }],
    fields: [
      { name: 'Full name', type: 'text', role: 'Tenant', required: true, areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.4, h: 0.04 }] },
      { name: 'Start date', type: 'date', role: 'Tenant', required: false, areas: [{ page: 1, x: 0.1, y: 0.28, w: 0.25, h: 0.04 }] },
    ],
    // An orange white text does not read on at 4.5:1 (3.6:1): the page puts ink on it and darkens it for links.
    preferences: { company_name: 'Acme Lettings', primary_button_color: '#e8590c' },
  });
  const submission = await api.ok('POST', '/api/submissions', {
    template_id: template.id,
    send_email: false,
    submitters: [{ role: 'Tenant', email: uniqueEmail('tenant'), name: 'Layla Haddad', language: locale }],
  });
  return submission.submitters[0].signing_url as string;
}

/** The stepper's Decline: the first button of its second row (Previous comes first in the first). */
const declineButton = (page: Page) => page.locator('#stepper .row').nth(1).locator('button').first();

const CASES = (['en', 'ar'] as const).flatMap((locale) => (['phone', 'desktop'] as const).map((size) => [locale, size] as const));

describe('the signing page, looked at', () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    const { E2E_BASE: base, E2E_TOKEN: token } = process.env;
    server = base && token ? { base, token } : await sharedDevServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.each(CASES)('%s at %s width: every state is readable, reachable and in the screen', async (locale, size) => {
    const page = await browser.newPage({ viewport: VIEWPORTS[size], deviceScaleFactor: 1 });
    const audits: Record<string, Audit> = {};
    const shot = async (state: string) => (audits[state] = await look(page, `${locale}-${size}-${state}`));

    await page.goto(await newSigner(locale));
    expect(await page.getAttribute('html', 'dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    await page.waitForSelector('#disclosure');
    await shot('1-disclosure');
    await page.check('#disclosure-accept');
    await page.click('#disclosure-continue');
    await page.waitForSelector('#stepper #field-input');
    await shot('2-form');
    await page.click('#submit');
    // Locators, not waitForFunction: the page's CSP forbids the eval that polling uses.
    await page.locator('#form-error').filter({ hasText: /\S/ }).waitFor();
    await shot('3-field-error');
    await page.fill('#field-input', 'Layla Haddad');
    // The decline dialog, refused without a reason: the server's sentence in the signer's language.
    await declineButton(page).click();
    await page.click('#decline-confirm');
    await page.locator('.carousel .error').filter({ hasText: /\S/ }).waitFor();
    await shot('4-decline-refused');
    await page.locator('.carousel .actions button.secondary').click();
    await page.click('#submit');
    await page.waitForSelector('#completed', { timeout: 30_000 });
    await shot('5-completed');

    await page.goto(await newSigner(locale));
    await page.check('#disclosure-accept');
    await page.click('#disclosure-continue');
    await page.waitForSelector('#stepper #field-input');
    await declineButton(page).click();
    await page.fill('#decline-reason', locale === 'ar' ? 'لم أعد بحاجة إلى الشقة.' : 'I no longer need the flat.');
    await page.click('#decline-confirm');
    await page.waitForSelector('#declined', { timeout: 30_000 });
    await shot('6-declined');
    await page.close();

    for (const [state, audit] of Object.entries(audits)) {
      expect({ state, ...audit }).toEqual({ state, small: [], lowContrast: [], overflow: 0 });
    }
  });
});
