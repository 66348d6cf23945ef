// bench/docgen: a 50-page thumbnail run (every page of a 50-page PDF drawn to a 400 px PNG and stored
// in R2) through the service's own code on local Browser Rendering (wrangler dev, bench/docgen/worker.ts),
// beside its floor — the same Chromium drawing the same pages with the same pdf.js page, driven
// directly by playwright-core, nothing stored. Both include starting the browser. Prints medians and
// the ratio.
//
//   node bench/docgen/run.mjs [--iterations 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chromium } from 'playwright-core';
import { installBrowserWrapper } from '../../scripts/browser-rendering.mjs';
import { benchEnv, freePort, root, waitUp } from '../local-wrangler.mjs';

const iterations = Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 5;
const WIDTH = 400;
const PAGES = 50;

/** A 50-page letter-size PDF with a paragraph of text per page, like a long contract. */
async function fiftyPagePdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= PAGES; i += 1) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Section ${i}`, { x: 72, y: 720, size: 16, font });
    for (let line = 0; line < 40; line += 1) {
      page.drawText(`Clause ${i}.${line + 1}: the parties agree to the terms set out in this section of the agreement.`, { x: 72, y: 690 - line * 15, size: 10, font });
    }
  }
  return pdf.save();
}

/** The renderer page the service uses, read from its source so the floor draws with the very same code. */
function rendererHtml() {
  const source = readFileSync(path.join(root, 'src/services/rendering/page-images.ts'), 'utf8');
  const match = /export const RENDERER_HTML = `([\s\S]*?)`;/.exec(source);
  if (!match) throw new Error('RENDERER_HTML not found in page-images.ts');
  return match[1];
}

async function floorRun(pdf, html) {
  const started = performance.now();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const resources = {
      '/renderer.html': ['text/html', html],
      '/pdf.min.mjs': ['text/javascript', readFileSync(path.join(root, 'public/vendor/pdfjs/pdf.min.mjs'))],
      '/pdf.worker.min.mjs': ['text/javascript', readFileSync(path.join(root, 'public/vendor/pdfjs/pdf.worker.min.mjs'))],
      '/document.pdf': ['application/pdf', Buffer.from(pdf)],
    };
    await page.route('**/*', (route) => {
      const found = resources[new URL(route.request().url()).pathname];
      return found ? route.fulfill({ status: 200, contentType: found[0], body: found[1] }) : route.abort();
    });
    await page.goto('https://render.invalid/renderer.html');
    await page.waitForFunction('window.rendererReady === true');
    await page.evaluate('window.openDocument()');
    for (let n = 1; n <= PAGES; n += 1) {
      const dataUrl = await page.evaluate(`window.renderPage(${n}, ${WIDTH})`);
      Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
    }
  } finally {
    await browser.close();
  }
  return performance.now() - started;
}

async function measuredRun(url, pdf) {
  const started = performance.now();
  const res = await fetch(`${url}/thumbnails?width=${WIDTH}`, { method: 'POST', body: pdf });
  if (!res.ok) throw new Error(`bench worker answered ${res.status}: ${await res.text()}`);
  const body = await res.json();
  if (body.pages !== PAGES) throw new Error(`bench worker drew ${body.pages} pages`);
  return performance.now() - started;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

installBrowserWrapper();
const pdf = await fiftyPagePdf();
const html = rendererHtml();
const persist = mkdtempSync(path.join(tmpdir(), 'bench-docgen-'));
const port = await freePort();
const inspectorPort = await freePort();
const child = spawn('npx', ['wrangler', 'dev', '--config', 'bench/docgen/wrangler.toml', '--port', String(port), '--inspector-port', String(inspectorPort), '--ip', '127.0.0.1', '--persist-to', persist, '--log-level', 'warn'], {
  cwd: root,
  env: benchEnv,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
child.stderr.on('data', (d) => process.env.BENCH_DEBUG && process.stderr.write(d));
try {
  const url = `http://127.0.0.1:${port}`;
  await waitUp(url);
  // One warm-up each: first module loads, first browser start.
  await measuredRun(url, pdf);
  await floorRun(pdf, html);
  const measured = [];
  const floor = [];
  for (let i = 0; i < iterations; i += 1) {
    measured.push(await measuredRun(url, pdf));
    floor.push(await floorRun(pdf, html));
  }
  const m = median(measured);
  const f = median(floor);
  console.log(`bench/docgen — ${PAGES}-page thumbnail run at ${WIDTH} px, ${iterations} runs each after 1 warm-up`);
  console.log(`  service  generateThumbnails via Browser Rendering + R2   median ${fmt(m)}  (${(m / PAGES).toFixed(0)} ms a page)`);
  console.log(`  floor    same Chromium + pdf.js page, nothing stored      median ${fmt(f)}  (${(f / PAGES).toFixed(0)} ms a page)`);
  console.log(`  ratio (median service / median floor): ${(m / f).toFixed(2)}`);
} finally {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
  rmSync(persist, { recursive: true, force: true });
}
