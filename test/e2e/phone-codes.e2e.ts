// Phone codes in a real browser (issue 31 › 7): a signer opens the link from their SMS invitation, the
// page reports the click and takes `?via=sms` out of the address, they ask for a code by text, type it,
// and the form opens; the audit trail holds the click and the code's entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sqlOn, startDevServer, type DevServer } from './wrangler-dev';
import { apiOf, launchChromium, letterPdfBase64, preparedSetup } from './e2e-kit';

const PORT = Number(process.env.E2E_PHONE_PORT ?? 8766);
let server: DevServer;
let browser: Browser;

const api = apiOf(() => server);
const call = (method: string, path: string, body?: unknown) => api.call(method, path, body);

async function outboxText(to: string, kind: string): Promise<string | null> {
  const res = await fetch(`${server.base}/dev/outbox?to=${encodeURIComponent(to)}&kind=${kind}`);
  const { data } = (await res.json()) as { data: { text: string }[] };
  return data[0]?.text ?? null;
}

async function waitFor<T>(read: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 100; i += 1) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('timed out');
}

describe('phone codes in a real browser', () => {
  beforeAll(async () => {
    server = await startDevServer(PORT, { from: await preparedSetup() });
    browser = await launchChromium();
    // A loaded machine takes minutes to migrate and start wrangler dev.
  }, 600_000);

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await browser?.close();
    await server?.stop();
  });

  it('opens the form after the code texted to the phone, with the click from the SMS in the trail', async () => {
    const template = await call('POST', '/api/templates/pdf', {
      name: 'Phone code',
      documents: [{ name: 'agreement', file: await letterPdfBase64(['Agreement']) }],
      submitters: [{ name: 'Client' }],
      fields: [{ name: 'Name', type: 'text', role: 'Client', areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.35, h: 0.04 }] }],
      preferences: { require_phone_2fa: true },
    });
    expect(template.status).toBe(201);
    const phone = '+15557310031';
    const created = await call('POST', '/api/submissions', {
      template_id: template.json.id,
      send_email: false,
      submitters: [{ role: 'Client', email: 'client@e2e.test', phone, send_sms: true }],
    });
    expect(created.status).toBe(201);

    const sms = await waitFor(() => outboxText(phone, 'invitation'));
    const link = /https?:\/\/\S+\/s\/[0-9A-Za-z]+\?via=sms/.exec(sms)![0];
    const page = await browser.newPage();
    const reported = page.waitForResponse((r) => r.url().endsWith('/link_opened'));
    await page.goto(link);
    expect(await (await reported).json()).toEqual({ recorded: true });
    expect(page.url()).not.toContain('via=');
    await expect(page.locator('h1').textContent()).resolves.toBe('Verify your phone');

    await page.click('#send-code');
    await expect.poll(() => page.locator('#verify-error').textContent(), { timeout: 10_000 }).toBe('We sent a code. Check your messages.');
    const code = /\b(\d{6})\b/.exec(await waitFor(() => outboxText(phone, 'verification_code')))![1];
    await page.fill('#code', code);
    await page.click('#check-code');
    await page.waitForSelector('#disclosure-accept', { timeout: 20_000 });
    await page.close();

    const shard = `SHARD_${sqlOn(server, 'CONTROL_DB', `SELECT shard FROM accounts WHERE id = ${server.accountId}`)[0].shard}`;
    const trail = sqlOn(
      server,
      shard,
      `SELECT action, data FROM submission_events WHERE submission_id = ${created.json.id} AND submitter_id IS NOT NULL ORDER BY id`,
    ).map((r) => `${r.action} ${r.data}`);
    expect(trail).toEqual(
      expect.arrayContaining([
        'link_clicked {"channel":"sms"}',
        'verification_code_sent {"channel":"sms"}',
        'phone_verified {"channel":"sms"}',
      ]),
    );
  });
});
