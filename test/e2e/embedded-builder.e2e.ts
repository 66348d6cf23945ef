// The embedded template builder in a real browser (issue 15 › 4): a host page on an allowed local origin
// embeds <template-builder data-token> with a builder embed token; a field dragged onto the page and saved
// is stored where it was dropped, and the host receives `saved` under both prefixes and as an element
// event. axe-core finds nothing serious or critical in the embedded builder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiOf, launchChromium, letterPdfBase64, sharedDevServer, type SharedServer } from './e2e-kit';

let server: SharedServer;
let browser: Browser;
let host: { server: Server; origin: string };

const { ok: call } = apiOf(() => server);

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The integrator's page (/?token=<builder token>): loads the builder script and records what it is told. */
async function startHost(): Promise<{ server: Server; origin: string }> {
  const http = createServer((req, res) => {
    const token = new URL(req.url ?? '/', 'http://host').searchParams.get('token') ?? '';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host app</title></head><body>
<main><h1>Design your template</h1>
<template-builder data-token="${attribute(token)}"></template-builder></main>
<script>
  window.received = [];
  window.elementEvents = [];
  window.addEventListener('message', (e) => window.received.push({ origin: e.origin, type: e.data && e.data.type, data: e.data && e.data.data }));
  for (const name of ['load', 'saved', 'error']) {
    document.addEventListener(name, (e) => { if (e.target.tagName === 'TEMPLATE-BUILDER') window.elementEvents.push({ name, detail: e.detail }); }, true);
  }
</script>
<script src="${server.base}/embed/v1/builder.js"></script>
</body></html>`);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { server: http, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

async function onePageTemplate(): Promise<string> {
  const template = await call('POST', '/api/templates/pdf', {
    name: 'Embedded builder template',
    documents: [{ name: 'contract', file: await letterPdfBase64() }],
    submitters: [{ name: 'Client' }],
  });
  return template.id;
}

async function openHost(templateId: string): Promise<Page> {
  const { token } = await call('POST', '/api/embed/token', {
    resource_type: 'template',
    resource_id: templateId,
    permissions: ['edit', 'view'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${host.origin}/?token=${encodeURIComponent(token)}`);
  await page.frameLocator('template-builder iframe').locator('#template-builder[data-ready="true"]').waitFor({ timeout: 60_000 });
  return page;
}

describe('the embedded template builder in a real browser', () => {
  beforeAll(async () => {
    server = await sharedDevServer();
    browser = await launchChromium();
    host = await startHost();
    // ENVIRONMENT=development locally: an http origin may be allowed.
    await call('PUT', '/api/settings/account', { embed_origins: [host.origin] });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    if (host) {
      host.server.closeAllConnections();
      await new Promise((r) => host.server.close(r));
    }
  });

  it('stores a field dragged onto the page where it was dropped and tells the host saved under both prefixes', async () => {
    const templateId = await onePageTemplate();
    const page = await openHost(templateId);
    const frame = page.frameLocator('template-builder iframe');
    // The frame's address no longer holds the token once the builder has it.
    expect(
      page
        .frames()
        .find((f) => f.url().includes('/embed/builder/'))
        ?.url(),
    ).not.toContain('token=');
    await page.waitForFunction("window.received.some((m) => m.type === 'sign:load')", undefined, { timeout: 15_000 });
    const target = frame.locator('.page[data-page="1"]');
    await frame.locator('.page[data-page="1"][data-drawn="true"]').waitFor({ timeout: 60_000 });
    await target.evaluate((node) => node.scrollIntoView({ block: 'start' }));
    const pageBox = (await target.boundingBox())!;
    const button = (await frame.locator('#builder-palette button[data-type="text"]').boundingBox())!;
    const x = Math.round(pageBox.x + 0.3 * pageBox.width);
    const y = Math.round(pageBox.y + 0.25 * pageBox.height);
    await page.mouse.move(button.x + button.width / 2, button.y + button.height / 2);
    await page.mouse.down();
    await page.mouse.move(x, y, { steps: 8 });
    await page.mouse.up();
    const drop = { x: (x - pageBox.x) / pageBox.width, y: (y - pageBox.y) / pageBox.height };
    await frame.locator('#builder-save').click();
    await frame.locator('#builder-status:has-text("Saved as version")').waitFor({ timeout: 30_000 });

    const stored = await call('GET', `/api/templates/${templateId}`);
    const field = stored.schema.find((f: { type: string }) => f.type === 'text');
    expect(field.areas).toHaveLength(1);
    expect(field.areas[0].page).toBe(1);
    expect(Math.abs(field.areas[0].x - drop.x)).toBeLessThan(0.001);
    expect(Math.abs(field.areas[0].y - drop.y)).toBeLessThan(0.001);

    await page.waitForFunction("window.received.some((m) => m.type === 'sign:saved')", undefined, { timeout: 15_000 });
    const received = (await page.evaluate('window.received')) as { origin: string; type: string; data: Record<string, unknown> }[];
    const saved = received.filter((m) => m.type?.endsWith(':saved'));
    expect(saved.map((m) => m.type).sort()).toEqual(['sign:saved', 'signing-service:saved']);
    for (const m of saved) {
      expect(m.origin).toBe(new URL(server.base).origin);
      expect(m.data).toMatchObject({ template_id: templateId });
    }
    const events = (await page.evaluate('window.elementEvents')) as { name: string; detail: Record<string, unknown> }[];
    expect(events.map((e) => e.name)).toEqual(expect.arrayContaining(['load', 'saved']));
    await page.context().close();
  });

  it('axe-core finds no serious or critical violation in the embedded builder', async () => {
    const page = await openHost(await onePageTemplate());
    await page.frameLocator('template-builder iframe').locator('.page[data-drawn="true"]').waitFor({ timeout: 60_000 });
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.context().close();
  });
});
