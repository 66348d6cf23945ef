// bench/builder: opening a 50-page template in the template builder until it is interactive (the
// builder marks `data-ready` once the fields are placed and the palette works; the first page drawn is
// printed too), and the size of the script it loads, beside the signing page's figures for a
// submission of the same template: its floor, a page with the same 50 pages that a signer opens.
// Real Chromium against wrangler dev. Prints medians and p95s and the ratio (target: interactive ≤ 1.5 s).
//
// The signing page opens on the electronic records disclosure; it is accepted once, before the runs, so
// each run then opens straight on the form, as a signer coming back does.
//
//   node bench/builder/run.mjs [--iterations 10] [--smoke]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  apiCaller,
  BENCH_PASSWORD,
  benchEnv,
  root,
  seedBenchState,
  setAdminPassword,
  sharedServer,
  smoke,
  startDev,
} from '../local-wrangler.mjs';

const iterations = smoke ? 1 : Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 10;
const warmup = smoke ? 0 : 2;

async function fiftyPagePdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= 50; i += 1) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Section ${i}`, { x: 72, y: 720, size: 16, font });
    for (let line = 0; line < 40; line += 1)
      page.drawText(`Clause ${i}.${line + 1}: the parties agree to the terms of this section.`, {
        x: 72,
        y: 690 - line * 15,
        size: 10,
        font,
      });
  }
  return Buffer.from(await pdf.save()).toString('base64');
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] };
}

function scriptSize(relative) {
  const bytes = readFileSync(path.join(root, 'public', 'vendor', relative));
  return { raw: bytes.length, gzip: gzipSync(bytes).length };
}

// Under bench/smoke.mjs: its shared server, where the admin's password is set already.
const shared = sharedServer();
const persist = mkdtempSync(path.join(tmpdir(), 'bench-builder-'));
let server;
let browser;
try {
  if (!shared) execFileSync(process.execPath, ['scripts/vendor-assets.mjs'], { cwd: root, env: benchEnv });
  const setup = shared?.setup ?? seedBenchState(persist);
  server = shared ? undefined : await startDev({ persist });
  const base = (shared ?? server).base;
  await setAdminPassword(base, setup);

  const call = apiCaller(base, setup.token);
  // One text field per page, as a long contract to be initialled throughout.
  const fields = Array.from({ length: 50 }, (_, i) => ({
    name: `Initials ${i + 1}`,
    type: 'text',
    areas: [{ page: i + 1, x: 0.7, y: 0.9, w: 0.2, h: 0.03 }],
  }));
  const template = await call('POST', '/api/templates/pdf', {
    name: 'Fifty pages',
    documents: [{ name: 'contract', file: await fiftyPagePdf() }],
    fields,
  });
  const submission = await call('POST', '/api/submissions', {
    template_id: template.id,
    send_email: false,
    submitters: [{ role: 'First Party', email: 'bench@example.test' }],
  });
  const signingUrl = submission.submitters[0].signing_url;

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.fill('#email', 'admin@example.com');
  await page.fill('#password', BENCH_PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(/\/settings\/account/);

  /** Milliseconds from navigation start until `selector` exists, measured by the page's own clock. */
  async function open(url, selector) {
    await page.goto('about:blank');
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector(selector, { state: 'attached', timeout: 60_000 });
    return page.evaluate(() => performance.now());
  }
  // The disclosure, accepted once as test/e2e/signing.e2e.ts does: tick the box by its label, continue.
  await page.goto(signingUrl);
  await page.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check({ timeout: 60_000 });
  await page.click('#disclosure-continue');
  await page.waitForSelector('.page .area', { state: 'attached', timeout: 60_000 });

  const builder = { ready: [], drawn: [] };
  const signing = { ready: [], drawn: [] };
  for (let i = 0; i < warmup + iterations; i += 1) {
    const b1 = await open(`${base}/templates/${template.id}/edit`, '#template-builder[data-ready="true"]');
    const b2 = await page
      .waitForSelector('.page[data-drawn="true"]', { state: 'attached', timeout: 60_000 })
      .then(() => page.evaluate(() => performance.now()));
    const s1 = await open(signingUrl, '.page .area');
    const s2 = await page
      .waitForSelector('.page[data-drawn="true"]', { state: 'attached', timeout: 60_000 })
      .then(() => page.evaluate(() => performance.now()));
    if (i < warmup) continue;
    builder.ready.push(b1);
    builder.drawn.push(b2);
    signing.ready.push(s1);
    signing.drawn.push(s2);
  }
  const fmt = ({ median, p95 }) => `median ${median.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`;
  const builderScript = scriptSize('builder/builder.js');
  const consoleScript = scriptSize('console/console.js');
  const signingScript = scriptSize('signing/signing-page.js');
  console.log(`50-page template, ${iterations} runs (after ${warmup} warm-up), Chromium against wrangler dev`);
  console.log(`builder interactive (fields placed):  ${fmt(stats(builder.ready))}`);
  console.log(`builder first page drawn:             ${fmt(stats(builder.drawn))}`);
  console.log(`signing page fields placed (floor):   ${fmt(stats(signing.ready))}`);
  console.log(`signing page first page drawn:        ${fmt(stats(signing.drawn))}`);
  console.log(
    `ratio builder / signing page (interactive, medians): ${(stats(builder.ready).median / stats(signing.ready).median).toFixed(2)}; target: builder interactive ≤ 1500 ms`,
  );
  console.log(
    `scripts: builder ${builderScript.raw} B (${builderScript.gzip} B gzip) + console ${consoleScript.raw} B (${consoleScript.gzip} B gzip); signing page ${signingScript.raw} B (${signingScript.gzip} B gzip); pdf.js is shared by both`,
  );
} finally {
  await browser?.close();
  await server?.stop();
  rmSync(persist, { recursive: true, force: true });
}
