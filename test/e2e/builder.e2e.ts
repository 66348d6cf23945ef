// The template builder in a real browser (issue 15 bars): a template uploaded from a three-page PDF on
// /templates/new; three fields of different types dragged from the palette onto page 2, saved and
// reloaded are where they were dropped (to 0.001 of the page); a submission of it, completed through
// the API, seals with the values inside those areas (pdftotext -bbox). Keyboard moves, resizes, undoes
// and deletes; a 422 sentence is shown beside its field; axe-core finds nothing serious or critical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiOf, fetchRetried, launchChromium, letterPdf, sharedDevServer, type SharedServer } from './e2e-kit';

const PAGE_SIZE = { width: 612, height: 792 };

let server: SharedServer;
let browser: Browser;
let page: Page;
let templateId = '';
/** Where each dragged field's top-left corner was let go, as fractions of page 2. */
const dropped: { type: string; name: string; x: number; y: number }[] = [];

const { call } = apiOf(() => server);

/** Three US Letter pages (PAGE_SIZE), each headed with its number. */
const threePagePdf = () => letterPdf(['Contract page 1', 'Contract page 2', 'Contract page 3']);

/** The shared server's dev admin has a password already. */
async function signIn(p: Page) {
  await p.goto(`${server.base}/login`);
  await p.fill('#email', server.adminEmail);
  await p.fill('#password', server.adminPassword);
  await p.click('button[type=submit]');
  await p.waitForURL(/\/settings\/account/);
}

async function openBuilder(p: Page) {
  await p.goto(`${server.base}/templates/${templateId}/edit`);
  await p.waitForSelector('#template-builder[data-ready="true"]');
}

async function seriousViolations(p: Page) {
  const result = await new AxeBuilder({ page: p }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** An area's box as fractions of its page, as drawn. */
async function drawnBox(p: Page, name: string) {
  const area = p.locator('.area', { has: p.locator('.area-name', { hasText: new RegExp(`^${name}$`) }) });
  return area.evaluate((node) => {
    const a = node.getBoundingClientRect();
    const pageBox = node.parentElement!.getBoundingClientRect();
    return {
      page: Number(node.parentElement!.dataset.page),
      x: (a.left - pageBox.left) / pageBox.width,
      y: (a.top - pageBox.top) / pageBox.height,
    };
  });
}

describe('the template builder in a real browser', () => {
  beforeAll(async () => {
    server = await sharedDevServer();
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    await signIn(page);
  }, 600_000); // wrangler dev's first start (migrations, setup) can be slow on a shared machine

  afterAll(async () => {
    await browser?.close();
  });

  it('uploading a three-page PDF on /templates/new opens the builder with its three pages', async () => {
    await page.goto(`${server.base}/templates/new`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#upload-name', 'Builder contract');
    await page.setInputFiles('#upload-file', { name: 'contract.pdf', mimeType: 'application/pdf', buffer: await threePagePdf() });
    await page.click('#template-upload button[type=submit]');
    await page.waitForURL(/\/templates\/[^/]+\/edit$/);
    templateId = new URL(page.url()).pathname.split('/')[2];
    await page.waitForSelector('#template-builder[data-ready="true"]');
    expect(await page.locator('.page').count()).toBe(3);
  });

  it('three fields dragged onto page 2 and saved are stored where they were dropped', async () => {
    const target = page.locator('.page[data-page="2"]');
    await target.scrollIntoViewIfNeeded();
    await page.waitForSelector('.page[data-page="2"][data-drawn="true"]', { timeout: 60_000 });
    await target.evaluate((node) => node.scrollIntoView({ block: 'start' }));
    const drops = [
      { type: 'text', name: 'Text Field 1', fx: 0.15, fy: 0.2, value: 'Alpha' },
      { type: 'number', name: 'Number Field 1', fx: 0.55, fy: 0.35, value: '42' },
      { type: 'date', name: 'Date Field 1', fx: 0.3, fy: 0.6, value: '2026-11-25' },
    ];
    for (const drop of drops) {
      const pageBox = (await target.boundingBox())!;
      const button = (await page.locator(`#builder-palette button[data-type="${drop.type}"]`).boundingBox())!;
      const x = Math.round(pageBox.x + drop.fx * pageBox.width);
      const y = Math.round(pageBox.y + drop.fy * pageBox.height);
      await page.mouse.move(button.x + button.width / 2, button.y + button.height / 2);
      await page.mouse.down();
      await page.mouse.move(x, y, { steps: 8 });
      await page.mouse.up();
      dropped.push({ type: drop.type, name: drop.name, x: (x - pageBox.x) / pageBox.width, y: (y - pageBox.y) / pageBox.height });
    }
    await page.click('#builder-save');
    await page.waitForSelector('#builder-status:has-text("Saved as version")');
    const stored = await call('GET', `/api/templates/${templateId}`);
    for (const drop of dropped) {
      const field = stored.json.schema.find((f: { name: string }) => f.name === drop.name);
      expect(field.type).toBe(drop.type);
      expect(field.areas).toHaveLength(1);
      expect(field.areas[0].page).toBe(2);
      expect(Math.abs(field.areas[0].x - drop.x)).toBeLessThan(0.001);
      expect(Math.abs(field.areas[0].y - drop.y)).toBeLessThan(0.001);
    }
  });

  it('after a reload the builder draws each field where it was dropped', async () => {
    await openBuilder(page);
    for (const drop of dropped) {
      const box = await drawnBox(page, drop.name);
      expect(box.page).toBe(2);
      expect(Math.abs(box.x - drop.x)).toBeLessThan(0.001);
      expect(Math.abs(box.y - drop.y)).toBeLessThan(0.001);
    }
  });

  it('a submission of the template seals with each value inside the area it was dropped at', async () => {
    const created = await call('POST', '/api/submissions', {
      template_id: templateId,
      send_email: false,
      submitters: [{ role: 'First Party', email: 'builder.signer@e2e.test', name: 'Builder Signer' }],
    });
    expect(created.status).toBe(201);
    const submitter = created.json.submitters[0];
    const done = await call('PUT', `/api/submitters/${submitter.id}`, {
      values: { 'Text Field 1': 'Alpha', 'Number Field 1': '42', 'Date Field 1': '2026-11-25' },
      completed: true,
    });
    expect(done.status).toBe(200);
    const submissionId = created.json.id;
    let documents: { id: number }[] = [];
    for (let i = 0; i < 60 && documents.length === 0; i += 1) {
      const list = await call('GET', `/api/submissions/${submissionId}/documents`);
      if (list.status === 200 && list.json.sealed && list.json.documents?.length) documents = list.json.documents;
      else await new Promise((r) => setTimeout(r, 500));
    }
    expect(documents).toHaveLength(1);
    const pdf = await fetchRetried(`${server.base}/api/submissions/${submissionId}/documents/${documents[0].id}`, {
      headers: { 'X-Auth-Token': server.token },
    });
    const dir = mkdtempSync(join(tmpdir(), 'e2e-builder-'));
    try {
      writeFileSync(join(dir, 'sealed.pdf'), Buffer.from(await pdf.arrayBuffer()));
      const run = spawnSync('pdftotext', ['-f', '2', '-l', '2', '-bbox', join(dir, 'sealed.pdf'), join(dir, 'words.html')], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      const words = [
        ...readFileSync(join(dir, 'words.html'), 'utf8').matchAll(
          /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
        ),
      ].map((m) => ({
        xMin: Number(m[1]),
        yMin: Number(m[2]),
        xMax: Number(m[3]),
        yMax: Number(m[4]),
        text: m[5],
      }));
      const stored = await call('GET', `/api/templates/${templateId}`);
      const expectations = [
        { name: 'Text Field 1', word: /^Alpha$/ },
        { name: 'Number Field 1', word: /^42$/ },
        { name: 'Date Field 1', word: /2026/ },
      ];
      for (const { name, word } of expectations) {
        const area = stored.json.schema.find((f: { name: string }) => f.name === name).areas[0];
        const found = words.find((w) => word.test(w.text));
        expect(found, `${name} on page 2`).toBeDefined();
        // The value's words lie inside the area (1 pt of slack for glyph bounds).
        expect(found!.xMin).toBeGreaterThanOrEqual(area.x * PAGE_SIZE.width - 1);
        expect(found!.xMin).toBeLessThanOrEqual((area.x + area.w) * PAGE_SIZE.width);
        expect(found!.yMin).toBeGreaterThanOrEqual(area.y * PAGE_SIZE.height - 1);
        expect(found!.yMax).toBeLessThanOrEqual((area.y + area.h) * PAGE_SIZE.height + 1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('arrow keys move a focused field, Shift+arrows resize it and Ctrl+Z undoes both', async () => {
    await openBuilder(page);
    const area = page.locator('.area[data-type="text"]');
    await area.focus();
    const before = await drawnBox(page, 'Text Field 1');
    await page.keyboard.press('ArrowRight');
    const moved = await drawnBox(page, 'Text Field 1');
    expect(moved.x - before.x).toBeCloseTo(0.01, 4);
    const width = () => area.evaluate((n) => n.getBoundingClientRect().width / n.parentElement!.getBoundingClientRect().width);
    const w0 = await width();
    await page.keyboard.press('Shift+ArrowRight');
    expect((await width()) - w0).toBeCloseTo(0.01, 4);
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    const back = await drawnBox(page, 'Text Field 1');
    expect(Math.abs(back.x - before.x)).toBeLessThan(1e-6);
    expect(await width()).toBeCloseTo(w0, 6);
  });

  it('Delete removes the focused field and Ctrl+Z brings it back', async () => {
    await page.locator('.area[data-type="number"]').focus();
    await page.keyboard.press('Delete');
    expect(await page.locator('.area[data-type="number"]').count()).toBe(0);
    await page.keyboard.press('Control+z');
    expect(await page.locator('.area[data-type="number"]').count()).toBe(1);
  });

  it('a field dragged by the mouse moves with it and its resize handle resizes it', async () => {
    const area = page.locator('.area[data-type="date"]');
    const start = await drawnBox(page, 'Date Field 1');
    const pageBox = (await page.locator('.page[data-page="2"]').boundingBox())!;
    const box = (await area.boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 10 + 50, box.y + 5 + 30, { steps: 5 });
    await page.mouse.up();
    const after = await drawnBox(page, 'Date Field 1');
    expect(after.x - start.x).toBeCloseTo(50 / pageBox.width, 3);
    expect(after.y - start.y).toBeCloseTo(30 / pageBox.height, 3);
    const handle = (await area.locator('.handle').boundingBox())!;
    const widthBefore = (await area.boundingBox())!.width;
    await page.mouse.move(handle.x + 4, handle.y + 4);
    await page.mouse.down();
    await page.mouse.move(handle.x + 44, handle.y + 4, { steps: 5 });
    await page.mouse.up();
    expect((await area.boundingBox())!.width - widthBefore).toBeCloseTo(40, 0);
  });

  it('the API’s 422 sentence about a field is shown beside that field', async () => {
    await openBuilder(page);
    await page.locator('.area[data-type="number"]').click();
    await page.fill('#field-formula', '{No Such Field} + 1');
    await page.press('#field-formula', 'Tab');
    await page.click('#builder-save');
    await page.waitForSelector('#builder-status:has-text("Not saved")');
    const sentence = await page.locator('#field-errors li').first().textContent();
    expect(sentence).toMatch(/No Such Field/);
    expect(await page.getAttribute('#field-name', 'aria-describedby')).toBe('field-errors');
    expect(await page.locator('.area.invalid').count()).toBe(1);
  });

  it('roles added, renamed and reordered and the panel’s properties are saved as the API’s fields', async () => {
    await openBuilder(page);
    await page.click('#role-add');
    await page.fill('#role-name-1', 'Witness');
    await page.press('#role-name-1', 'Tab');
    await page.click('#role-up-1');
    await page.locator('.area[data-type="text"]').click();
    await page.selectOption('#field-role', { label: 'Witness' });
    await page.uncheck('#field-required');
    await page.fill('#field-placeholder', 'Your full name');
    await page.press('#field-placeholder', 'Tab');
    await page.selectOption('#field-validation', 'letters_only');
    await page.selectOption('#field-review', 'false');
    await page.selectOption('#field-condition-action', 'show');
    await page.selectOption('#field-condition-field', { label: 'Number Field 1' });
    await page.selectOption('#field-condition-operator', 'not_empty');
    await page.locator('.area[data-type="number"]').click();
    await page.fill('#field-formula', '');
    await page.press('#field-formula', 'Tab');
    await page.click('#builder-save');
    await page.waitForSelector('#builder-status:has-text("Saved as version")');
    const stored = (await call('GET', `/api/templates/${templateId}`)).json;
    expect(stored.submitters.map((r: { name: string }) => r.name)).toEqual(['Witness', 'First Party']);
    const text = stored.schema.find((f: { type: string }) => f.type === 'text');
    const number = stored.schema.find((f: { type: string }) => f.type === 'number');
    expect(text).toMatchObject({
      submitter_uuid: stored.submitters[0].uuid,
      required: false,
      placeholder: 'Your full name',
      validation: 'letters_only',
      preferences: {
        review_in_carousel: false,
        condition: { action: 'show', conditions: [{ field_uuid: number.uuid, operator: 'not_empty' }] },
      },
    });
  });

  it('axe-core finds no serious or critical violations in the builder with a field selected', async () => {
    await openBuilder(page);
    await page.locator('.area[data-type="text"]').click();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sending the template from its send page creates a submission listed on /submissions', async () => {
    await page.goto(`${server.base}/templates/${templateId}/send`);
    const email = `sent.${Date.now()}@e2e.test`;
    await page.fill('#send-0-email', email);
    await page.fill('#send-0-name', 'Console Signer');
    await page.fill('#send-1-email', 'second.from.console@e2e.test');
    await page.fill('#send-subject', 'Please sign the contract');
    await page.click('form[data-api="/api/submissions"] button[type=submit]');
    await page.waitForURL(/\/submissions$/);
    expect(await page.locator('tr', { hasText: email }).count()).toBe(1);
  });

  it('axe-core finds no serious or critical violations on the templates, send and submissions pages', async () => {
    for (const path of ['/templates', `/templates/${templateId}/send`, '/submissions']) {
      await page.goto(`${server.base}${path}`);
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });
});
