// bench/docgen: two runs through the service's own code on local Browser Rendering (wrangler dev,
// bench/docgen/worker.ts), each beside its floor driven directly by playwright-core in the same Chromium.
//  - A 10-page DOCX to PDF (convertDocxUploads, as POST /api/templates/docx: unzip, variables,
//    docxtemplater, mammoth, print). Floor: the HTML mammoth made, printed with the same print options,
//    no processing.
//  - A 50-page thumbnail run (every page of a 50-page PDF drawn to a 400 px PNG and stored in R2).
//    Floor: the same pdf.js page drawing the same pages, nothing stored.
// Every run includes starting the browser. Prints absolute medians and the ratio.
//
//   node bench/docgen/run.mjs [--iterations 5] [--smoke]   (smoke: one run each, no warm-up, 5 thumbnails)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chromium } from 'playwright-core';
import { installBrowserWrapper } from '../../scripts/browser-rendering.mjs';
import { benchEnv, freePort, root, smoke, waitUp } from '../local-wrangler.mjs';

const iterations = smoke ? 1 : Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 5;
const WIDTH = 400;
const PAGES = smoke ? 5 : 50;
const DOCX_PAGES = 10;

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PART = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const run = (text, bold = false) => `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const para = (text, bold) => `<w:p>${run(text, bold)}</w:p>`;
const cell = (text) => `<w:tc>${para(text)}</w:tc>`;

/**
 * A 10-page contract as Word writes one: per page a bold heading, numbered clauses with variables, a
 * price table and a page break; a header and a footer with variables. Built by hand (a zip of five XML
 * parts), so the bench states its own document.
 */
function tenPageDocx() {
  let body = '';
  for (let i = 1; i <= DOCX_PAGES; i += 1) {
    body += para(`Section ${i}: obligations of [[client_name]]`, true);
    for (let c = 1; c <= 8; c += 1) {
      body += para(
        `${i}.${c} [[client_name]] and [[provider_name]] agree that the services described in this section are delivered as set out in the order form, that invoices are paid within thirty days, and that either party may end this section with ninety days of written notice.`,
      );
    }
    const rows = [['Item', 'Quantity', 'Price']].concat(
      Array.from({ length: 5 }, (_, r) => [`Service ${i}.${r + 1}`, String(r + 1), `[[price_${r + 1}]]`]),
    );
    body += `<w:tbl><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>${rows.map((cells) => `<w:tr>${cells.map(cell).join('')}</w:tr>`).join('')}</w:tbl>`;
    if (i < DOCX_PAGES) body += '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
  }
  const header = `${xmlHead}<w:hdr xmlns:w="${W}">${para('Master services agreement between [[client_name]] and [[provider_name]]')}</w:hdr>`;
  const footer = `${xmlHead}<w:ftr xmlns:w="${W}">${para('Confidential, reference [[submission_id]]')}</w:ftr>`;
  return zipSync({
    '[Content_Types].xml': strToU8(
      `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/word/document.xml" ContentType="${PART}.document.main+xml"/>` +
        `<Override PartName="/word/header1.xml" ContentType="${PART}.header+xml"/><Override PartName="/word/footer1.xml" ContentType="${PART}.footer+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rh" Type="${R}/header" Target="header1.xml"/><Relationship Id="rf" Type="${R}/footer" Target="footer1.xml"/></Relationships>`,
    ),
    'word/document.xml': strToU8(
      `${xmlHead}<w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body}<w:sectPr><w:headerReference w:type="default" r:id="rh"/><w:footerReference w:type="default" r:id="rf"/></w:sectPr></w:body></w:document>`,
    ),
    'word/header1.xml': strToU8(header),
    'word/footer1.xml': strToU8(footer),
  });
}

/** A 50-page letter-size PDF with a paragraph of text per page, like a long contract. */
async function fiftyPagePdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= PAGES; i += 1) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Section ${i}`, { x: 72, y: 720, size: 16, font });
    for (let line = 0; line < 40; line += 1) {
      page.drawText(`Clause ${i}.${line + 1}: the parties agree to the terms set out in this section of the agreement.`, {
        x: 72,
        y: 690 - line * 15,
        size: 10,
        font,
      });
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

/** The floor of the DOCX run: Chromium printing the HTML mammoth made, with the service's print options. */
async function docxFloorRun(page) {
  const started = performance.now();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const tab = await browser.newPage();
    await tab.setContent(page.html, { waitUntil: 'load' });
    const pdf = await tab.pdf(page.options);
    const pages = (await PDFDocument.load(pdf)).getPageCount();
    if (pages !== DOCX_PAGES) throw new Error(`the floor printed ${pages} pages`);
  } finally {
    await browser.close();
  }
  return performance.now() - started;
}

async function docxMeasuredRun(url, docx) {
  const started = performance.now();
  const res = await fetch(`${url}/docx`, { method: 'POST', body: docx });
  if (!res.ok) throw new Error(`bench worker answered ${res.status}: ${await res.text()}`);
  const body = await res.json();
  if (body.pages !== DOCX_PAGES) throw new Error(`bench worker printed ${body.pages} pages`);
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
const child = spawn(
  'npx',
  [
    'wrangler',
    'dev',
    '--config',
    'bench/docgen/wrangler.toml',
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    persist,
    '--log-level',
    'warn',
  ],
  {
    cwd: root,
    env: benchEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  },
);
child.stderr.on('data', (d) => process.env.BENCH_DEBUG && process.stderr.write(d));
try {
  const url = `http://127.0.0.1:${port}`;
  await waitUp(url);
  const docx = tenPageDocx();
  const pageRes = await fetch(`${url}/docx/page`, { method: 'POST', body: docx });
  if (!pageRes.ok) throw new Error(`bench worker answered ${pageRes.status}: ${await pageRes.text()}`);
  const docxPage = await pageRes.json();
  // One warm-up each: first module loads, first browser start.
  if (!smoke) {
    await docxMeasuredRun(url, docx);
    await docxFloorRun(docxPage);
    await measuredRun(url, pdf);
    await floorRun(pdf, html);
  }
  const docxMeasured = [];
  const docxFloor = [];
  const measured = [];
  const floor = [];
  for (let i = 0; i < iterations; i += 1) {
    docxMeasured.push(await docxMeasuredRun(url, docx));
    docxFloor.push(await docxFloorRun(docxPage));
    measured.push(await measuredRun(url, pdf));
    floor.push(await floorRun(pdf, html));
  }
  const dm = median(docxMeasured);
  const df = median(docxFloor);
  console.log(`bench/docgen — ${iterations} runs of each after ${smoke ? 'no' : '1'} warm-up; every run starts its browser`);
  console.log(`${DOCX_PAGES}-page DOCX (${(docx.byteLength / 1024).toFixed(0)} KB) to PDF`);
  console.log(
    `  service  convertDocxUploads: unzip, docxtemplater, mammoth, Browser Rendering   median ${fmt(dm)}  (${(dm / DOCX_PAGES).toFixed(0)} ms a page)`,
  );
  console.log(
    `  floor    same Chromium printing mammoth's HTML with the same options         median ${fmt(df)}  (${(df / DOCX_PAGES).toFixed(0)} ms a page)`,
  );
  console.log(`  ratio (median service / median floor): ${(dm / df).toFixed(2)}`);
  const m = median(measured);
  const f = median(floor);
  console.log(`${PAGES}-page thumbnail run at ${WIDTH} px`);
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
