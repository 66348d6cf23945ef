// Peak memory of sealing with the CJK font (issue 31 › 3; the Worker's limit is 128 MB): bundles
// src/services/pdf/fonts.ts and stamp.ts for Node with esbuild, as wrangler bundles them for the
// Worker, then stamps Japanese, Chinese and Korean values and an Arabic one into a new PDF with the
// font read from public/fonts, sampling process.memoryUsage() every millisecond.
//   node --expose-gc scripts/measure-font-memory.mjs
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = join(dirname(new URL(import.meta.url).pathname), '..');
const out = join(tmpdir(), `font-memory-${process.pid}.mjs`);
await build({
  stdin: {
    contents:
      "export { assetFonts, DocumentFonts } from './src/services/pdf/fonts'; export { stampFields } from './src/services/pdf/stamp';",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  loader: { '.ttf': 'binary' },
  outfile: out,
  logLevel: 'error',
});
const { assetFonts, DocumentFonts, stampFields } = await import(out);
const { PDFDocument } = await import('pdf-lib');

const mb = (n) => (n / 1024 / 1024).toFixed(1);
globalThis.gc?.();
const before = process.memoryUsage();
const peak = { rss: before.rss, heap: before.heapUsed, buffers: before.arrayBuffers };
const sample = setInterval(() => {
  const m = process.memoryUsage();
  peak.rss = Math.max(peak.rss, m.rss);
  peak.heap = Math.max(peak.heap, m.heapUsed);
  peak.buffers = Math.max(peak.buffers, m.arrayBuffers);
}, 1);

const started = performance.now();
// The Worker's source over a stand-in for the ASSETS binding that answers from public/.
const source = assetFonts({ fetch: async (url) => new Response(await readFile(join(root, 'public', new URL(url).pathname))) });
const pdf = await PDFDocument.create();
pdf.addPage();
const values = ['東京都千代田区丸の内一丁目 山田太郎', '北京市海淀区 王小明', '서울특별시 김민준', 'مرحبا بالعالم', 'שלום עולם'];
const stamps = values.map((text, i) => ({ area: { page: 1, x: 0.1, y: 0.1 + i * 0.1, w: 0.6, h: 0.05 }, value: { kind: 'text', text } }));
await stampFields(pdf, stamps, new DocumentFonts(pdf, source));
const bytes = await pdf.save();
const elapsed = performance.now() - started;
clearInterval(sample);
const after = process.memoryUsage();
console.log(`PDF ${bytes.length} bytes in ${elapsed.toFixed(0)} ms (font file 16 MB read, parsed, subset)`);
console.log(`rss      before ${mb(before.rss)} MB  peak ${mb(peak.rss)} MB  (+${mb(peak.rss - before.rss)})`);
console.log(`heapUsed before ${mb(before.heapUsed)} MB  peak ${mb(peak.heap)} MB  (+${mb(peak.heap - before.heapUsed)})`);
console.log(`buffers  before ${mb(before.arrayBuffers)} MB  peak ${mb(peak.buffers)} MB  (+${mb(peak.buffers - before.arrayBuffers)})`);
console.log(`after: heapUsed ${mb(after.heapUsed)} MB, buffers ${mb(after.arrayBuffers)} MB (the font stays cached for the isolate)`);
