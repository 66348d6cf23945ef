// The rest of the signer's pages under axe-core (issue 31 › 4, its first bar; the form's own states are in
// signer-accessibility.e2e.ts): in en, de, ar (right to left) and ja, at phone width (390 CSS px) and at
// 320 px reflow, WCAG 2.0/2.1/2.2 A and AA find no violation of any impact, nothing scrolls sideways and
// every control is a 44 px target, on the qes retry and refused pages (reached through the CSC imitation:
// the signer cancels there, or the form is archived while they are there), the payment step (before
// paying, refused by the Stripe imitation, paid; and in the branded bar, whose stepper has the header's
// colours, with a required field's error), the waiting, unavailable, signed-by-someone-else and
// unknown-link pages, completed with the sealed copy to download and with a witness to invite, and the public document link's pages
// (unknown, not sealed yet, expired, erased, revoked; a live link is the PDF itself).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module of the test setup, without type declarations.
import { startCscImitation } from '../global-setup/csc-imitation.mjs';
// @ts-expect-error: a plain ES module of the test setup, without type declarations.
import { startStripeImitation } from '../global-setup/stripe-imitation.mjs';
import { signDocumentLink } from '../../src/services/document-links/tokens';
import { fromBase62 } from '../../src/lib/random';
import { STATUS } from '../../src/lib/design-tokens';
import { layoutProblems, tabTo, violations } from './accessibility-kit';
import { apiOf, fetchRetried, launchChromium, letterPdfBase64, preparedSetup, uniqueEmail } from './e2e-kit';
import { startDevServer, type DevServer } from './wrangler-dev';

const PORT = Number(process.env.E2E_A11Y_PORT ?? 8789);
const STRIPE_KEY = 'sk_test_acctA11yPages1';
const STRIPE_SECRET = 'whsec_a11yPagesSecret1';
const LOCALES = ['en', 'de', 'ar', 'ja'] as const;
/** Phone width, then the 320 CSS px of WCAG 1.4.10 (reflow). */
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
];

let server: DevServer;
let browser: Browser;
let csc: { port: number; close(): Promise<void> };
let stripe: { port: number; close(): Promise<void> };
const { call, ok } = apiOf(() => server);
const SES = { signature_level: 'ses' };
const templates: Record<'plain' | 'paid' | 'brandedPaid' | 'pair' | 'witnessed', number> = {
  plain: 0,
  paid: 0,
  brandedPaid: 0,
  pair: 0,
  witnessed: 0,
};

/** `#b91c1c` → `rgb(185, 28, 28)`, as getComputedStyle gives a colour. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

/** axe and the layout checks at each width, the page reloaded nowhere: what a signer turning the phone sees. */
async function sweep(page: Page, state: string): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const at = `${state} at ${viewport.width} px`;
    found.push(...(await violations(page, at)), ...(await layoutProblems(page, at)));
  }
  await page.setViewportSize(VIEWPORTS[0]);
  return found;
}

/** The computed text colour of the first element matching `selector`. */
function colourOf(page: Page, selector: string): Promise<string> {
  return page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).color`);
}

/** A phone-sized browser whose Accept-Language is `locale` (what pages before the signer is known go by). */
function phone(locale: string): Promise<BrowserContext> {
  return browser.newContext({ viewport: VIEWPORTS[0], locale, isMobile: true, hasTouch: true });
}

/**
 * A submission whose signers (one per role) read `locale`; at signature level ses unless `extra` says
 * otherwise (the account allows qes, which would leave the API unable to complete them).
 */
async function created(template: number, locale: string, extra: Record<string, unknown> = {}, roles = ['Signer']) {
  return ok('POST', '/api/submissions', {
    template_id: template,
    send_email: false,
    preferences: SES,
    ...extra,
    submitters: roles.map((role) => ({ role, email: uniqueEmail(`pages.${locale}`), name: 'Ada Lovelace', language: locale })),
  });
}

/** The disclosure accepted by keyboard, as a signer of any language does it (its label is translated). */
async function openForm(page: Page, slug: string): Promise<void> {
  await page.goto(`${server.base}/s/${slug}`);
  await page.waitForSelector('#disclosure-accept');
  await tabTo(page, '#disclosure-accept');
  await page.keyboard.press('Space');
  await page.click('#disclosure-continue');
  await page.waitForSelector('#stepper #field-input');
}

/** A qes signer who filled the one field and submitted: the page is the CSC imitation's authorization. */
async function atProvider(page: Page, locale: string): Promise<{ submissionId: number }> {
  const submission = await created(templates.plain, locale, { preferences: { signature_level: 'qes' } });
  await openForm(page, submission.submitters[0].slug);
  await page.fill('#field-input', 'Ada Lovelace');
  await page.click('#submit');
  await page.waitForSelector('#imitation-approve', { timeout: 30_000 });
  return { submissionId: submission.id };
}

async function sealed(submissionId: number): Promise<{ id: number }[]> {
  for (let i = 0; i < 240; i += 1) {
    const list = await call('GET', `/api/submissions/${submissionId}/documents`);
    if (list.status === 200 && list.json.sealed && list.json.documents?.length) return list.json.documents;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`submission ${submissionId} was not sealed in two minutes`);
}

/** A submission of the plain template completed through the API, sealed. */
async function completedSubmission(locale: string): Promise<{ id: number; slug: string; documentId: number }> {
  const submission = await created(templates.plain, locale);
  const submitter = submission.submitters[0];
  await ok('PUT', `/api/submitters/${submitter.id}`, { completed: true, values: { 'Full name': 'Ada Lovelace' } });
  const [document] = await sealed(submission.id);
  return { id: submission.id, slug: submitter.slug, documentId: document.id };
}

describe('every other signer page under axe, at phone width and 320 px', () => {
  beforeAll(async () => {
    [csc, stripe] = await Promise.all([startCscImitation(), startStripeImitation()]);
    server = await startDevServer(PORT, {
      vars: { QES_PROVIDER_ALLOW_HOSTS: `127.0.0.1:${csc.port}`, STRIPE_API_BASE: `http://127.0.0.1:${stripe.port}` },
      from: await preparedSetup(),
    });
    browser = await launchChromium();
    await ok('PUT', '/api/settings/signature_level', {
      level: 'qes',
      provider: 'Imitation Trust',
      qes_provider_api_url: `http://127.0.0.1:${csc.port}/csc/v2`,
      qes_provider_api_key: 'signing-service:csc-imitation-secret',
      qes_certificate_id: 'cred-rsa',
    });
    await ok('PUT', '/api/settings/payments', { stripe_secret_key: STRIPE_KEY, stripe_webhook_secret: STRIPE_SECRET });
    // The imitation's checkout page sends this key's webhooks to the account's endpoint.
    await fetch(`http://127.0.0.1:${stripe.port}/__webhooks`, {
      method: 'POST',
      body: JSON.stringify({
        secret_key: STRIPE_KEY,
        url: `${server.base}/api/payments/webhook/${server.accountId}`,
        secret: STRIPE_SECRET,
      }),
    });
    const file = await letterPdfBase64(['Service agreement']);
    const name = { name: 'Full name', type: 'text', required: true, areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.4, h: 0.04 }] };
    templates.plain = (
      await ok('POST', '/api/templates/pdf', {
        name: 'Agreement',
        documents: [{ name: 'agreement', file }],
        submitters: [{ name: 'Signer' }],
        fields: [{ ...name, role: 'Signer' }],
      })
    ).id;
    const order = {
      name: 'Order',
      documents: [{ name: 'order', file }],
      submitters: [{ name: 'Signer' }],
      fields: [
        { ...name, role: 'Signer' },
        {
          name: 'Deposit',
          type: 'payment',
          role: 'Signer',
          preferences: { amount: '25.00', currency: 'EUR', description: 'Deposit' },
          areas: [{ page: 1, x: 0.1, y: 0.3, w: 0.2, h: 0.04 }],
        },
      ],
    };
    templates.paid = (await ok('POST', '/api/templates/pdf', order)).id;
    // The stepper as a sticky bar under the header, in the header's colours (the brand's, darkened).
    templates.brandedPaid = (await ok('POST', '/api/templates/pdf', { ...order, preferences: { signing_nav_style: 'branded_bar' } })).id;
    templates.pair = (
      await ok('POST', '/api/templates/pdf', {
        name: 'Pair',
        documents: [{ name: 'pair', file }],
        submitters: [{ name: 'First' }, { name: 'Second' }],
        fields: ['First', 'Second'].map((role, i) => ({
          ...name,
          name: `${role} name`,
          role,
          areas: [{ ...name.areas[0], y: 0.2 + i * 0.1 }],
        })),
      })
    ).id;

    // A Witness role: the signer, once done, is asked to name the witness (the role's submitter a placeholder).
    templates.witnessed = (
      await ok('POST', '/api/templates/pdf', {
        name: 'Witnessed',
        documents: [{ name: 'witnessed', file }],
        submitters: [{ name: 'Signer' }, { name: 'Witness' }],
        fields: [
          { ...name, role: 'Signer' },
          { name: 'Witness signature', type: 'signature', role: 'Witness', areas: [{ page: 1, x: 0.1, y: 0.5, w: 0.3, h: 0.08 }] },
        ],
      })
    ).id;
  });

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await browser?.close();
    await server?.stop();
    await Promise.all([csc?.close(), stripe?.close()]);
  });

  it.each(LOCALES)('%s: the qes retry page (cancelled at the provider) and the refused page (form archived meanwhile)', async (locale) => {
    const context = await phone(locale);
    const page = await context.newPage();
    const found: string[] = [];
    try {
      await atProvider(page, locale);
      await page.click('#imitation-deny');
      await page.waitForSelector('#qes-retry', { timeout: 30_000 });
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      found.push(...(await sweep(page, 'qes retry')));
      // Both ways on are reached by Tab, their focus shown and uncovered.
      await tabTo(page, '#qes-retry-button');
      await tabTo(page, '#qes-back');

      const { submissionId } = await atProvider(page, locale);
      await ok('DELETE', `/api/submissions/${submissionId}`);
      await page.click('#imitation-approve');
      await page.waitForSelector('#qes-refused', { timeout: 30_000 });
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      found.push(...(await sweep(page, 'qes refused')));
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(
    LOCALES,
  )('%s: the payment step before paying, refused and paid; in the branded bar with an error shown and refused', async (locale) => {
    const context = await phone(locale);
    const page = await context.newPage();
    const found: string[] = [];
    try {
      const submission = await created(templates.paid, locale);
      await openForm(page, submission.submitters[0].slug);
      await page.fill('#field-input', 'Ada Lovelace');
      await page.click('#next');
      await page.waitForSelector('#pay');
      found.push(...(await sweep(page, 'payment step')));
      // The step opened on Pay (focused by the script after a click, so without a ring): Tab away and back.
      await page.keyboard.press('Tab');
      await tabTo(page, '#pay', true);

      await page.click('#pay');
      await page.waitForSelector('#imitation-fail', { timeout: 30_000 });
      await page.click('#imitation-fail');
      await page.waitForURL(/\?payment=cancelled/);
      await page.waitForSelector('#stepper #field-input');
      await page.click('#next');
      await page.waitForSelector('#pay');
      // The refusal's sentence, announced as a status beside the Pay button.
      await page.waitForSelector('#field-input .payment-status');
      // Still to pay: said in the error colour, not the success one.
      expect(await colourOf(page, '#field-input .payment-status')).toBe(rgb(STATUS.error));
      found.push(...(await sweep(page, 'payment refused')));

      await page.click('#pay');
      await page.waitForSelector('#imitation-pay', { timeout: 30_000 });
      await page.click('#imitation-pay');
      await page.waitForURL(/\?payment=success/);
      await page.waitForSelector('#stepper #field-input');
      await page.click('#next');
      // Paid: the status alone, no Pay button.
      await page.waitForSelector('#field-input .payment-status');
      expect(await page.locator('#pay').count()).toBe(0);
      expect(await colourOf(page, '#field-input .payment-status')).toBe(rgb(STATUS.success));
      found.push(...(await sweep(page, 'paid')));

      // The same step in the branded bar: a required field refused, then the payment.
      const branded = await created(templates.brandedPaid, locale);
      await openForm(page, branded.submitters[0].slug);
      await page.click('#next');
      await page.waitForSelector('#field-input[aria-invalid="true"]');
      found.push(...(await sweep(page, 'branded bar, error shown')));
      await page.fill('#field-input', 'Ada Lovelace');
      await page.click('#next');
      await page.waitForSelector('#pay');
      found.push(...(await sweep(page, 'branded bar, payment step')));
      await page.click('#pay');
      await page.waitForSelector('#imitation-fail', { timeout: 30_000 });
      await page.click('#imitation-fail');
      await page.waitForURL(/\?payment=cancelled/);
      await page.waitForSelector('#stepper #field-input');
      await page.click('#next');
      await page.waitForSelector('#field-input .payment-status');
      found.push(...(await sweep(page, 'branded bar, payment refused')));
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(
    LOCALES,
  )('%s: waiting, unavailable, signed by someone else, unknown link, completed with the copy and with a witness to invite', async (locale) => {
    const context = await phone(locale);
    const page = await context.newPage();
    const found: string[] = [];
    try {
      // The second of two sequential signers waits for the first.
      const pair = await created(templates.pair, locale, {}, ['First', 'Second']);
      await page.goto(`${server.base}/s/${pair.submitters[1].slug}`);
      await page.waitForSelector('#waiting');
      found.push(...(await sweep(page, 'waiting')));

      const archived = await created(templates.plain, locale);
      await ok('DELETE', `/api/submissions/${archived.id}`);
      await page.goto(`${server.base}/s/${archived.submitters[0].slug}`);
      await page.waitForSelector('#unavailable');
      found.push(...(await sweep(page, 'unavailable')));

      // Any one of two people signs; the other's link says who did.
      const group = await ok('POST', '/api/submissions', {
        template_id: templates.plain,
        send_email: false,
        preferences: SES,
        submitters: [
          {
            role: 'Signer',
            language: locale,
            emails: [
              { email: uniqueEmail(`ann.${locale}`), name: 'Ann Approver' },
              { email: uniqueEmail(`ben.${locale}`), name: 'Ben Approver' },
            ],
          },
        ],
      });
      const [ann, ben] = group.submitters[0].emails.map((e: { signing_url: string }) => new URL(e.signing_url).pathname);
      await openForm(page, ben.slice('/s/'.length));
      await page.fill('#field-input', 'Ben Approver');
      await page.click('#submit');
      await page.waitForSelector('#completed', { timeout: 30_000 });
      await page.goto(`${server.base}${ann}`);
      await page.waitForSelector('#signed-by-other');
      found.push(...(await sweep(page, 'signed by someone else')));

      await page.goto(`${server.base}/s/no-such-signing-link`);
      await page.waitForSelector('#not-found');
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      found.push(...(await sweep(page, 'unknown signing link')));

      const done = await completedSubmission(locale);
      await page.goto(`${server.base}/s/${done.slug}`);
      await page.waitForSelector('#completed #download');
      found.push(...(await sweep(page, 'completed with the sealed copy')));
      await tabTo(page, '#download');

      const witnessed = await created(templates.witnessed, locale, {}, ['Signer', 'Witness']);
      await ok('PUT', `/api/submitters/${witnessed.submitters[0].id}`, { completed: true, values: { 'Full name': 'Ada Lovelace' } });
      await page.goto(`${server.base}/s/${witnessed.submitters[0].slug}`);
      await page.waitForSelector('#witness #invite-witness');
      found.push(...(await sweep(page, 'completed, a witness to invite')));
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the public document link pages: unknown, not sealed yet, expired, erased and revoked, in every locale', async () => {
    // The server's key, from the .dev.vars setup.mjs wrote (`NAME="value"`).
    const secret = /^ENCRYPTION_KEY="?([^"\n]*)"?$/m.exec(readFileSync(join(server.dir, '.dev.vars'), 'utf8'))![1];
    const live = await completedSubmission('en');
    const link = (await ok('POST', `/api/submissions/${live.id}/documents/${live.documentId}/link`, {})).url.replace(
      /^https?:\/\/[^/]+/,
      server.base,
    );
    // A live link is the PDF itself, not a page.
    const pdf = await fetchRetried(link, { headers: { Accept: 'text/html' } });
    expect([pdf.status, pdf.headers.get('Content-Type')]).toEqual([200, 'application/pdf']);
    await pdf.arrayBuffer();

    // Tokens signed with the server's own key (as it mints them): one whose expiry has passed, and one to a
    // submission still being signed (the API mints links to completed submissions only).
    const generation = fromBase62(new URL(link).pathname.split('/')[2].split('.')[3]);
    const claims = { accountId: server.accountId, submissionId: live.id, documentId: live.documentId, generation };
    const expired = await signDocumentLink(secret, { ...claims, expiresAt: Math.floor(Date.now() / 1000) - 60 });
    const pending = await created(templates.plain, 'en');
    const notReady = await signDocumentLink(secret, { ...claims, submissionId: pending.id, expiresAt: null });
    const erasing = await completedSubmission('en');
    const erasedLink = (await ok('POST', `/api/submissions/${erasing.id}/documents/${erasing.documentId}/link`, {})).url.replace(
      /^https?:\/\/[^/]+/,
      server.base,
    );
    await ok('DELETE', `/api/submissions/${erasing.id}?permanently=true`);

    const pages = [
      { state: 'unknown link', url: `${server.base}/l/no-such-link`, status: 404 },
      { state: 'not sealed yet', url: `${server.base}/l/${notReady}`, status: 409 },
      { state: 'expired link', url: `${server.base}/l/${expired}`, status: 410 },
      { state: 'erased documents', url: erasedLink, status: 410 },
    ];
    const found: string[] = [];
    const contexts = await Promise.all(LOCALES.map((locale) => phone(locale)));
    try {
      const visit = async (locale: string, context: BrowserContext, state: string, url: string, status: number) => {
        const page = await context.newPage();
        const response = await page.goto(url);
        expect(response?.status(), `${locale} ${state}`).toBe(status);
        expect(await page.getAttribute('html', 'lang')).toBe(locale);
        await page.waitForSelector('#document-link');
        found.push(...(await sweep(page, `${locale} ${state}`)));
        await page.close();
      };
      for (const [i, locale] of LOCALES.entries()) {
        for (const { state, url, status } of pages) await visit(locale, contexts[i], state, url, status);
      }
      // "Stop every public document link already sent": the live link becomes the revoked page.
      await ok('POST', '/api/settings/document_links/revoke');
      for (const [i, locale] of LOCALES.entries()) await visit(locale, contexts[i], 'revoked link', link, 410);
      expect(found).toEqual([]);
    } finally {
      await Promise.all(contexts.map((c) => c.close()));
    }
  });
});
