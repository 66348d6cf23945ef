// The signing page with the keyboard alone and a screen reader's view of it (issue 31 › 4, its first bar):
// in en, de, ar (right to left) and ja a signer completes a 3-page form (text, date, checkbox, select,
// signature) with Tab, Shift+Tab, Space, Enter and typing only, and the sealed document results; axe-core
// (WCAG 2.0/2.1/2.2 A and AA tags) finds no violation of any impact on the disclosure, the form, the form
// with an error shown, the email and phone code pages, completed, declined and expired; the accessibility
// tree names every field with its label and its required, invalid, checked and filled states; each page
// image is named "Page n of 3" with the page's text under it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { focusedNode, tabTo, violations } from './accessibility-kit';
import { translatorFor } from '../../src/lib/i18n/catalogs';
import { apiOf, launchChromium, letterPdfBase64, sharedDevServer, uniqueEmail, type SharedServer } from './e2e-kit';

let server: SharedServer;
let browser: Browser;
const { call, ok } = apiOf(() => server);

const LOCALES = ['en', 'de', 'ar', 'ja'] as const;
const PAGE_TEXTS = ['Rental agreement between the parties', 'The tenant pays on the first day', 'Signed by both parties'];

let templateId: number;
let codeTemplateId: number;

const FIELDS = [
  { name: 'Full name', type: 'text', required: true, areas: [{ page: 1, x: 0.1, y: 0.3, w: 0.35, h: 0.04 }] },
  { name: 'Start date', type: 'date', required: true, areas: [{ page: 1, x: 0.55, y: 0.3, w: 0.25, h: 0.04 }] },
  { name: 'I agree to the terms', type: 'checkbox', required: true, areas: [{ page: 2, x: 0.1, y: 0.4, w: 0.04, h: 0.03 }] },
  { name: 'Plan', type: 'select', required: true, options: ['Basic', 'Pro'], areas: [{ page: 2, x: 0.3, y: 0.4, w: 0.25, h: 0.04 }] },
  { name: 'Signature', type: 'signature', required: true, areas: [{ page: 3, x: 0.1, y: 0.6, w: 0.3, h: 0.08 }] },
];

async function signingLink(
  template: number,
  language: string,
  extra: Record<string, unknown> = {},
  signer: Record<string, unknown> = {},
): Promise<{ url: string; submissionId: number }> {
  const created = await ok('POST', '/api/submissions', {
    template_id: template,
    send_email: false,
    ...extra,
    submitters: [{ role: 'Tenant', email: uniqueEmail(`a11y.${language}`), name: 'Ada Lovelace', language, ...signer }],
  });
  return { url: `${server.base}/s/${created.submitters[0].slug}`, submissionId: created.id };
}

describe('the signing page by keyboard and screen reader', () => {
  beforeAll(async () => {
    server = await sharedDevServer();
    browser = await launchChromium();
    const pdf = await letterPdfBase64(PAGE_TEXTS);
    const template = await ok('POST', '/api/templates/pdf', {
      name: 'Lease',
      documents: [{ name: 'lease', file: pdf }],
      submitters: [{ name: 'Tenant' }],
      fields: FIELDS.map((f) => ({ ...f, role: 'Tenant' })),
    });
    templateId = template.id;
    const coded = await ok('POST', '/api/templates/pdf', {
      name: 'Coded lease',
      documents: [{ name: 'lease', file: pdf }],
      submitters: [{ name: 'Tenant' }],
      fields: [{ ...FIELDS[0], role: 'Tenant' }],
      preferences: { require_email_2fa: true },
    });
    codeTemplateId = coded.id;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.each(LOCALES)('%s: a signer completes the 3-page form by keyboard alone, every state passing axe', async (locale) => {
    const { url, submissionId } = await signingLink(templateId, locale);
    const context = await browser.newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    const found: string[] = [];
    try {
      await page.goto(url);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await page.waitForSelector('#disclosure-accept');
      found.push(...(await violations(page, 'disclosure')));

      // The disclosure: Tab to the box, Space ticks it, Tab to Continue, Enter.
      await tabTo(page, '#disclosure-accept');
      await page.keyboard.press('Space');
      await tabTo(page, '#disclosure-continue');
      await page.keyboard.press('Enter');

      // The form opens on its first field, focused: text, labelled, required.
      await page.waitForSelector('#stepper #field-input');
      await page.waitForFunction("document.activeElement?.id === 'field-input'");
      const first = await focusedNode(page);
      expect(first).toMatchObject({ role: 'textbox', name: 'Full name', properties: { required: true } });
      // Required but not yet invalid: nothing was refused.
      expect(first.properties.invalid).not.toBe('true');
      // Each page is named in the signer's language, with the page's words under it: a stored page image
      // (its alt) or, before the images are drawn, pdf.js's canvas (role img, aria-label).
      await page.waitForSelector('.page[data-page="3"] :is(canvas[role="img"], img.page-image[alt]:not([alt=""]))', { timeout: 60_000 });
      const names = await page.$$eval('.page :is(canvas, img.page-image)', (nodes) =>
        nodes.map((n) => (n.tagName === 'IMG' ? n.getAttribute('alt') : n.getAttribute('aria-label'))),
      );
      expect(names).toHaveLength(3);
      for (const [i, name] of names.entries()) expect(name, `page ${i + 1}`).toBeTruthy();
      if (locale === 'en') expect(names).toEqual(['Page 1 of 3', 'Page 2 of 3', 'Page 3 of 3']);
      await page.waitForSelector('.page[data-page="3"] .text-layer span');
      const layers = await page.$$eval('.page .text-layer', (nodes) => nodes.map((n) => n.textContent));
      expect(layers).toEqual(PAGE_TEXTS);
      // Forced colours do not paint the transparent words over the image; reduced motion is honoured.
      await page.emulateMedia({ forcedColors: 'active', reducedMotion: 'reduce' });
      expect(await page.evaluate("getComputedStyle(document.querySelector('.text-layer span')).color")).toBe('rgba(0, 0, 0, 0)');
      found.push(...(await violations(page, 'form in forced colours')));
      await page.emulateMedia({ forcedColors: 'none', reducedMotion: 'no-preference' });
      found.push(...(await violations(page, 'form')));

      // Next with the required name empty: the error is announced and tied to the field.
      await tabTo(page, '#next');
      await page.keyboard.press('Enter');
      await page.waitForFunction("(document.getElementById('form-error')?.textContent ?? '') !== ''");
      expect(await page.getAttribute('#field-input', 'aria-invalid')).toBe('true');
      expect(await page.getAttribute('#field-input', 'aria-describedby')).toBe('form-error');
      const invalid = await focusedNode(page);
      expect(invalid).toMatchObject({ name: 'Full name', properties: { invalid: 'true', required: true } });
      found.push(...(await violations(page, 'errors shown')));

      await page.keyboard.type('Ada Lovelace');
      expect(await page.getAttribute('#field-input', 'aria-invalid')).toBeNull();
      expect(await page.locator('#stepper').ariaSnapshot()).toMatch(/textbox "Full name":\s*(- text: )?Ada Lovelace/);
      await tabTo(page, '#next');
      await page.keyboard.press('Enter');

      // Date: typed segment by segment (the browser's en-US order).
      await page.waitForFunction("document.activeElement?.id === 'field-input' && document.activeElement.type === 'date'");
      // A date input has no role that takes aria-required: its name says it (the asterisk is hidden).
      const date = await focusedNode(page);
      expect(date.name).toMatch(/^Start date \(.+\)$/);
      expect(date.properties.invalid).not.toBe('true');
      await page.keyboard.type('05312026');
      expect(await page.inputValue('#field-input')).toBe('2026-05-31');
      await tabTo(page, '#next');
      await page.keyboard.press('Enter');

      // Checkbox: Space ticks it; the tree says checked.
      await page.waitForFunction("document.activeElement?.type === 'checkbox'");
      await page.keyboard.press('Space');
      // Chromium carries no required state on a checkbox: its name says it.
      expect(await page.locator('#stepper').ariaSnapshot()).toMatch(/checkbox "I agree to the terms \(.+\)" \[checked\]/);
      expect(await focusedNode(page)).toMatchObject({ role: 'checkbox', properties: { checked: 'true' } });
      await tabTo(page, '#next');
      await page.keyboard.press('Enter');

      // Select: typing an option's name chooses it.
      await page.waitForFunction("document.activeElement?.tagName === 'SELECT'");
      await page.keyboard.type('Pro');
      expect(await page.inputValue('#field-input')).toBe('Pro');
      expect(await page.locator('#stepper').ariaSnapshot()).toMatch(/combobox "Plan"[\s\S]*option "Pro" \[selected\]/);
      await tabTo(page, '#next');
      await page.keyboard.press('Enter');

      // Signature: a group named by its legend; Type is one of the ways, chosen with Enter; then the name.
      await page.waitForFunction("document.activeElement?.getAttribute('data-mode') === 'draw'");
      expect(await page.locator('#stepper').ariaSnapshot()).toMatch(/group "Signature/);
      await tabTo(page, '[data-mode="type"]');
      await page.keyboard.press('Enter');
      expect(await page.getAttribute('[data-mode="type"]', 'aria-pressed')).toBe('true');
      await tabTo(page, '#sig-typed');
      await page.keyboard.type('Ada Lovelace');
      expect(await focusedNode(page)).toMatchObject({ role: 'textbox', properties: { required: true } });
      found.push(...(await violations(page, 'signature')));

      // Shift+Tab walks back through the ways to sign.
      await tabTo(page, '[data-mode="draw"]', true);
      await tabTo(page, '#submit');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#completed', { timeout: 30_000 });
      found.push(...(await violations(page, 'completed')));
      expect(found).toEqual([]);

      // The sealed document results.
      let sealed = false;
      for (let i = 0; i < 120 && !sealed; i += 1) {
        const list = await call('GET', `/api/submissions/${submissionId}/documents`);
        sealed = list.status === 200 && list.json.sealed === true && list.json.documents?.length === 1;
        if (!sealed) await new Promise((r) => setTimeout(r, 500));
      }
      expect(sealed).toBe(true);
      const done = await ok('GET', `/api/submissions/${submissionId}`);
      expect(Object.values(done.submitters[0].values)).toEqual(expect.arrayContaining(['Ada Lovelace', '2026-05-31', true, 'Pro']));
    } finally {
      await context.close();
    }
  });

  it.each(LOCALES)('%s: the email and phone code, declined and expired pages pass axe with a phone-width page', async (locale) => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 }, locale: 'en-US' });
    const page = await context.newPage();
    const found: string[] = [];
    try {
      const coded = await signingLink(codeTemplateId, locale);
      await page.goto(coded.url);
      await page.waitForSelector('#verify #code');
      found.push(...(await violations(page, 'code page')));
      // Nothing overflows sideways at 320 CSS px (reflow, WCAG 1.4.10).
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);

      // The phone's code page (issue 31 › 7), as it opens: its own words, the same controls.
      const phoned = await signingLink(templateId, locale, {}, { phone: '+14155550123', require_phone_2fa: true });
      await page.goto(phoned.url);
      await page.waitForSelector('#verify #code');
      expect(await page.textContent('#verify h1')).toBe(translatorFor(locale)('verify.phone.title'));
      found.push(...(await violations(page, 'phone code page')));
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);

      const declining = await signingLink(templateId, locale);
      await page.goto(declining.url);
      await tabTo(page, '#disclosure-accept');
      await page.keyboard.press('Space');
      await tabTo(page, '#disclosure-continue');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#stepper #field-input');
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
      found.push(...(await violations(page, 'form at 320 px')));
      // Decline by keyboard: the dialog takes focus, its reason is typed, Enter confirms.
      await tabTo(page, '#decline');
      await page.keyboard.press('Enter');
      await page.waitForFunction("document.activeElement?.id === 'decline-reason'");
      found.push(...(await violations(page, 'decline dialog')));
      await page.keyboard.type('Not for me');
      await tabTo(page, '#decline-confirm');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#declined');
      found.push(...(await violations(page, 'declined')));

      const expiring = await signingLink(templateId, locale, { expire_at: new Date(Date.now() + 3_000).toISOString() });
      await new Promise((r) => setTimeout(r, 3_500));
      await page.goto(expiring.url);
      await page.waitForSelector('#expired');
      found.push(...(await violations(page, 'expired')));
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
