// The embedded signing form in a real browser (issue 15 bar): a host page on another local origin that
// the account allows embeds <signing-form>; the signer completes inside the frame and the host receives
// both prefixed `completed` messages and the element's `completed` event. The same page on an origin the
// account does not allow gets no form. axe-core finds nothing serious or critical in the embedded form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiOf, launchChromium, letterPdfBase64, sharedDevServer, uniqueEmail, type SharedServer } from './e2e-kit';

let server: SharedServer;
let browser: Browser;
let allowedHost: { server: Server; origin: string };
let foreignHost: { server: Server; origin: string };

const { ok: call } = apiOf(() => server);

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * A host site: its page (/?src=<signing url>, or /?token=<form token> as an integrator's server would
 * render it) loads the embed script and records what the form tells it.
 */
async function startHost(): Promise<{ server: Server; origin: string }> {
  const http = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://host').searchParams;
    const source = query.get('token')
      ? `data-token="${attribute(query.get('token')!)}"`
      : `data-src="${attribute(query.get('src') ?? '')}"`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host app</title></head><body>
<main><h1>Sign your contract</h1>
<signing-form ${source} data-values='{"Full name":"Ada Lovelace"}'></signing-form></main>
<script>
  window.received = [];
  window.elementEvents = [];
  window.addEventListener('message', (e) => window.received.push({ origin: e.origin, type: e.data && e.data.type, data: e.data && e.data.data }));
  for (const name of ['load', 'completed', 'declined', 'expired']) {
    document.addEventListener(name, (e) => { if (e.target.tagName === 'SIGNING-FORM') window.elementEvents.push({ name, detail: e.detail }); }, true);
  }
</script>
<script src="${server.base}/embed/v1/form.js"></script>
</body></html>`);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { server: http, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

async function onePageTemplate(): Promise<string> {
  const template = await call('POST', '/api/templates/pdf', {
    name: 'Embedded contract',
    documents: [{ name: 'contract', file: await letterPdfBase64() }],
    submitters: [{ name: 'Client' }],
    fields: [{ name: 'Full name', type: 'text', role: 'Client', required: true, areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
  });
  return template.id;
}

async function signingUrl(templateId: string): Promise<{ url: string; submissionId: number }> {
  const submission = await call('POST', '/api/submissions', {
    template_id: templateId,
    send_email: false,
    submitters: [{ role: 'Client', email: uniqueEmail('embedded') }],
  });
  return { url: submission.submitters[0].signing_url.replace(/^https?:\/\/[^/]+/, server.base), submissionId: submission.id };
}

/** The host page in a context of its own (axe-core needs one made with browser.newContext()). */
async function openHost(host: { origin: string }, src: string, by: 'src' | 'token' = 'src'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${host.origin}/?${by}=${encodeURIComponent(src)}`);
  return page;
}

async function closeHost(page: Page) {
  await page.context().close();
}

describe('the embedded signing form in a real browser', () => {
  let templateId: string;

  beforeAll(async () => {
    server = await sharedDevServer();
    browser = await launchChromium();
    allowedHost = await startHost();
    foreignHost = await startHost();
    // ENVIRONMENT=development locally: an http origin may be allowed.
    await call('PUT', '/api/settings/account', { embed_origins: [allowedHost.origin] });
    templateId = await onePageTemplate();
    // Setting up the local databases takes minutes on a busy machine.
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    for (const host of [allowedHost, foreignHost]) {
      if (!host) continue;
      host.server.closeAllConnections();
      await new Promise((r) => host.server.close(r));
    }
  });

  it('lets the signer complete inside the frame and tells the host page completed under both prefixes and as an element event', async () => {
    const { url, submissionId } = await signingUrl(templateId);
    await completesInFrame(await openHost(allowedHost, url), submissionId);
  });

  it('finds the signer from a form token alone (data-token) and completes the same way', async () => {
    const { submissionId } = await signingUrl(templateId);
    const { token } = await call('POST', '/api/embed/token', {
      resource_type: 'submission',
      resource_id: submissionId,
      permissions: ['sign'],
    });
    await completesInFrame(await openHost(allowedHost, token, 'token'), submissionId);
  });

  async function completesInFrame(page: Page, submissionId: number) {
    const frame = page.frameLocator('signing-form iframe');
    // The electronic records disclosure comes first, inside the frame too.
    await frame.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check({ timeout: 30_000 });
    await frame.locator('#disclosure-continue').click();
    // Prefilled by the host (data-values), so the signer can submit at once.
    await expect.poll(() => frame.locator('#field-input').inputValue(), { timeout: 30_000 }).toBe('Ada Lovelace');
    await frame.locator('#submit').click();
    await frame.locator('#completed').waitFor({ timeout: 30_000 });
    await page.waitForFunction("window.received.some((m) => m.type === 'sign:completed')", undefined, { timeout: 15_000 });
    const received = (await page.evaluate('window.received')) as { origin: string; type: string; data: Record<string, unknown> }[];
    const completed = received.filter((m) => m.type?.endsWith(':completed'));
    expect(completed.map((m) => m.type).sort()).toEqual(['sign:completed', 'signing-service:completed']);
    for (const m of completed) {
      expect(m.origin).toBe(new URL(server.base).origin);
      expect(m.data).toMatchObject({ submission_id: submissionId, status: 'completed' });
    }
    expect(received.some((m) => m.type === 'signing-service:load')).toBe(true);
    const events = (await page.evaluate('window.elementEvents')) as { name: string; detail: Record<string, unknown> }[];
    expect(events.find((e) => e.name === 'completed')?.detail).toMatchObject({ submission_id: submissionId, status: 'completed' });
    const done = await call('GET', `/api/submissions/${submissionId}`);
    expect(done.submitters[0].status).toBe('completed');
    expect(Object.values(done.submitters[0].values)).toContain('Ada Lovelace');
    await closeHost(page);
  }

  it('is not framed on an origin the account does not allow: the form never loads and nothing is posted', async () => {
    const { url } = await signingUrl(templateId);
    const context = await browser.newContext();
    const page = await context.newPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    // The frame's page does arrive, naming only the allowed origin: what keeps it out is the browser.
    const response = page.waitForResponse((r) => r.url().startsWith(url));
    await page.goto(`${foreignHost.origin}/?src=${encodeURIComponent(url)}`);
    const served = await response;
    expect(served.status()).toBe(200);
    expect(served.headers()['content-security-policy']).toContain(`frame-ancestors ${allowedHost.origin}`);
    const iframe = await page.waitForSelector('signing-form iframe');
    await page.waitForTimeout(3_000);
    const frame = await iframe.contentFrame();
    const formShown = frame ? await frame.$('#stepper, header.brand').then((el) => el !== null) : false;
    expect(formShown).toBe(false);
    // Chromium's own account of it: the frame shows its error page, and the console names the directive.
    expect(frame?.url()).toBe('chrome-error://chromewebdata/');
    expect(logs.some((line) => line.includes('frame-ancestors') && line.includes('blocked'))).toBe(true);
    expect(await page.evaluate('window.received.length')).toBe(0);
    expect(await page.evaluate('window.elementEvents.length')).toBe(0);
    await closeHost(page);
  });

  it('axe-core finds no serious or critical violation in the embedded form', async () => {
    const { url } = await signingUrl(templateId);
    const page = await openHost(allowedHost, url);
    const frame = page.frameLocator('signing-form iframe');
    await frame.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check({ timeout: 30_000 });
    await frame.locator('#disclosure-continue').click();
    await frame.locator('#stepper').waitFor({ timeout: 30_000 });
    await frame.locator('.page[data-drawn="true"]').first().waitFor({ timeout: 60_000 });
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await closeHost(page);
  });
});
