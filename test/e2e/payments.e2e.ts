// Payment fields in a real browser (issue 20 bar): the signer pays on the signing page through the local
// Stripe imitation (its checkout page sends the signed webhook to the Worker and returns to the page),
// then completes; and a refused payment leaves the form open and fillable, with a sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { copySetup, launchWranglerDev, type LaunchedServer, type LocalSetup } from './wrangler-dev';
import { apiOf, launchChromium, letterPdfBase64, preparedSetup } from './e2e-kit';
// @ts-expect-error -- plain JavaScript test server (typed for Node only), see its header
import { startStripeImitation } from '../global-setup/stripe-imitation.mjs';

const PORT = Number(process.env.E2E_PORT ?? 8799) + 3;
const KEY = 'sk_test_acctBrowserPayments1';
const SECRET = 'whsec_browserPaymentsSecret1';
let server: LaunchedServer;
let setup: LocalSetup;
let stripe: { port: number; close(): Promise<void> };
let browser: Browser;

const { call } = apiOf(() => ({ base: server.base, token: setup.token }));

async function signingLink(templateId: number, email: string): Promise<string> {
  const res = await call('POST', '/api/submissions', { template_id: templateId, submitters: [{ email, name: 'Paying Signer' }] });
  expect(res.status).toBe(201);
  return res.json.submitters[0].signing_url.replace(/^https?:\/\/[^/]+/, server.base);
}

async function toPayment(page: Page, link: string, name: string) {
  await page.goto(link);
  await acceptDisclosure(page);
  await page.waitForSelector('#stepper');
  await page.fill('#field-input', name);
  await page.click('#next');
  await page.waitForSelector('#pay');
  expect(await page.textContent('.payment-amount')).toBe('25.00 EUR');
  await page.click('#pay');
  await page.waitForURL(/127\.0\.0\.1:\d+\/checkout\/cs_/);
}

/** The electronic records disclosure comes before the form: tick the box by its label, then continue. */
async function acceptDisclosure(page: Page) {
  await page.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check();
  await page.click('#disclosure-continue');
}

describe('payment fields in a real browser', () => {
  let templateId: number;

  beforeAll(async () => {
    // The run's setup (vendor assets built from the current source), copied: startDevServer does the same.
    stripe = await startStripeImitation();
    setup = copySetup(await preparedSetup(), `http://127.0.0.1:${PORT}`);
    server = await launchWranglerDev(PORT, setup.dir, [
      '--config',
      setup.config,
      '--var',
      `STRIPE_API_BASE:http://127.0.0.1:${stripe.port}`,
    ]);
    browser = await launchChromium();
    expect((await call('PUT', '/api/settings/payments', { stripe_secret_key: KEY, stripe_webhook_secret: SECRET })).status).toBe(200);
    // The imitation's checkout page sends this key's webhooks to the account's endpoint.
    await fetch(`http://127.0.0.1:${stripe.port}/__webhooks`, {
      method: 'POST',
      body: JSON.stringify({ secret_key: KEY, url: `${server.base}/api/payments/webhook/${setup.accountId}`, secret: SECRET }),
    });
    const created = await call('POST', '/api/templates/pdf', {
      name: 'Order',
      documents: [{ name: 'order', file: await letterPdfBase64(['Order form']) }],
      submitters: [{ name: 'Buyer' }],
      fields: [
        { name: 'Name', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.35, h: 0.04 }] },
        {
          name: 'Deposit',
          type: 'payment',
          preferences: { amount: '25.00', currency: 'EUR', description: 'Deposit' },
          areas: [{ page: 1, x: 0.1, y: 0.3, w: 0.2, h: 0.04 }],
        },
      ],
    });
    expect(created.status).toBe(201);
    templateId = created.json.id;
  });

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await browser?.close();
    await server?.stop();
    await stripe?.close();
  });

  it('pays on the signing page through the imitation and completes', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await toPayment(page, await signingLink(templateId, 'payer@e2e.test'), 'Pat Payer');
    await page.click('#imitation-pay');
    await page.waitForURL(/\/s\/\w+\?payment=success/);
    await page.waitForSelector('#stepper');
    expect(await page.inputValue('#field-input')).toBe('Pat Payer');
    await page.click('#next');
    await page.waitForSelector('text=Paid. Thank you.');
    await page.click('#submit');
    await page.waitForSelector('#completed', { timeout: 30_000 });
  });

  it('keeps the form open and fillable with a sentence when the payment fails', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await toPayment(page, await signingLink(templateId, 'refused@e2e.test'), 'Rita Refused');
    await page.click('#imitation-fail');
    await page.waitForURL(/\/s\/\w+\?payment=cancelled/);
    await page.waitForSelector('#stepper');
    await page.fill('#field-input', 'Rita Still Here');
    await page.click('#next');
    await page.waitForSelector('text=The payment did not go through: Your card was declined. You can try again with the Pay button.');
    expect(await page.isEnabled('#pay')).toBe(true);
    await page.click('#submit');
    await page.waitForSelector('text=Pay "Deposit" (25.00 EUR) before completing the form.');
    expect(await page.locator('#completed').count()).toBe(0);
  });
});
