// DocuSeal's embed components against us, unchanged (issue 32 › 3 bar): a local page renders
// `@docuseal/react`'s DocusealForm (bundled here with esbuild) with `host` and `src` pointing at `wrangler
// dev --local-protocol https`; it loads https://<host>/js/form.js, the signer completes inside the form in
// Chromium and the component's onComplete receives the submitter's id, email and values (the app:
// ./docuseal-react-app.mjs). DocusealBuilder loads our builder with a builder embed token the same way
// and hands onLoad and onSave the template.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { devFetch, startDevServer, type DevServer } from './wrangler-dev';
import { closeHost, fullNameTemplate } from './embed-fixtures';
import { launchChromium, preparedSetup } from './e2e-kit';

const PORT = Number(process.env.E2E_DOCUSEAL_PORT ?? 8763);
let server: DevServer;
let browser: Browser;
let host: { server: Server; origin: string };

async function call(method: string, route: string, body?: unknown) {
  const res = await devFetch(`${server.base}${route}`, {
    method,
    headers: { 'X-Auth-Token': server.token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${res.text}`);
  return res.text ? JSON.parse(res.text) : undefined;
}

/** The app (./docuseal-react-app.mjs) bundled with esbuild from the installed react, react-dom and @docuseal/react, on its own origin. */
async function startHost(): Promise<{ server: Server; origin: string }> {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'docuseal-react-app.mjs')],
    bundle: true,
    write: false,
    format: 'iife',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0].text;
  const http = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/app.js')) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      res.end(script);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Integrator app</title></head>
<body><main><h1>Sign your contract</h1><div id="root"></div></main><script src="/app.js"></script></body></html>`);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { server: http, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

/** The integrator's page in a context of its own that, like a developer's browser, accepts wrangler's local certificate. */
async function openApp(query: Record<string, string>): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(`${host.origin}/?${new URLSearchParams({ host: new URL(server.base).host, ...query })}`);
  return page;
}

const received = (page: Page) => page.evaluate('window.received') as Promise<Record<string, unknown[]> & { init: number }>;

describe("DocuSeal's React components against wrangler dev over https", () => {
  let templateId: string;

  beforeAll(async () => {
    server = await startDevServer(PORT, { https: true, from: await preparedSetup() });
    browser = await launchChromium();
    host = await startHost();
    // ENVIRONMENT=development locally: an http origin may be allowed.
    await call('PUT', '/api/settings/account', { embed_origins: [host.origin] });
    templateId = await fullNameTemplate(call, 'DocuSeal contract');
    // Setting up the local databases takes minutes on a busy machine.
  }, 600_000);

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await browser?.close();
    await closeHost(host);
    await server?.stop();
  });

  it('DocusealForm loads /js/form.js from host, the signer completes and onComplete receives their id, email and values', async () => {
    const email = `docuseal-${Date.now()}@e2e.test`;
    const submission = await call('POST', '/api/submissions', {
      template_id: templateId,
      send_email: false,
      submitters: [{ role: 'Client', email }],
    });
    const signer = submission.submitters[0];
    const page = await openApp({ src: signer.signing_url, email });
    const frame = page.frameLocator('docuseal-form iframe');
    await frame.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check({ timeout: 60_000 });
    await frame.locator('#disclosure-continue').click();
    // Prefilled from the component's `values` (data-values).
    await expect.poll(() => frame.locator('#field-input').inputValue(), { timeout: 30_000 }).toBe('Ada Lovelace');
    const before = await received(page);
    expect(before.init).toBe(1);
    expect(before.load).toEqual([expect.objectContaining({ id: signer.id, email, status: expect.any(String) })]);
    await frame.locator('#submit').click();
    await frame.locator('#completed').waitFor({ timeout: 30_000 });
    await page.waitForFunction('window.received.complete.length > 0', undefined, { timeout: 15_000 });
    const after = await received(page);
    expect(after.complete).toHaveLength(1);
    expect(after.complete[0]).toMatchObject({
      id: signer.id,
      submission_id: submission.id,
      email,
      role: 'Client',
      status: 'completed',
      values: [{ field: 'Full name', value: 'Ada Lovelace' }],
      submission: { id: submission.id, url: `${server.base}/api/submissions/${submission.id}` },
      template: { id: templateId, name: 'DocuSeal contract' },
    });
    // DocuSeal's element loads once: the completed page the frame moved on to is no second onLoad.
    expect(after.load).toHaveLength(1);
    expect(after.decline).toEqual([]);
    const done = await call('GET', `/api/submissions/${submission.id}`);
    expect(done.submitters[0].status).toBe('completed');
    await page.context().close();
  });

  it('DocusealBuilder loads /js/builder.js from host with a builder embed token and hands onLoad and onSave the template', async () => {
    const { token } = await call('POST', '/api/embed/token', { resource_type: 'template', resource_id: templateId, permissions: ['edit'] });
    const page = await openApp({ component: 'builder', token });
    const frame = page.frameLocator('docuseal-builder iframe');
    await frame.locator('#template-builder[data-ready="true"]').waitFor({ timeout: 60_000 });
    await page.waitForFunction('window.received.load.length > 0', undefined, { timeout: 15_000 });
    expect((await received(page)).load[0]).toMatchObject({ id: templateId });
    await frame.locator('#builder-save').click();
    await frame.locator('#builder-status:has-text("Saved as version")').waitFor({ timeout: 30_000 });
    await page.waitForFunction('window.received.save.length > 0', undefined, { timeout: 15_000 });
    expect((await received(page)).save[0]).toMatchObject({
      id: templateId,
      name: 'DocuSeal contract',
      version: expect.any(Number),
      fields: [expect.objectContaining({ name: 'Full name', type: 'text' })],
    });
    await page.context().close();
  });
});
