import { fiftyPagePdf } from './bench/templates/upload.mjs';
import { extractDocumentFields } from './src/services/templates/document-fields';
import { readContentsThroughXref } from './src/services/pdf/xref-reader';
const pdf = await fiftyPagePdf();
const N = 200;
async function time(label: string, fn: (b: Uint8Array) => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await fn(pdf.slice());
  const copies = Array.from({ length: N }, () => pdf.slice());
  const t = process.cpuUsage();
  for (const c of copies) await fn(c);
  const u = process.cpuUsage(t);
  console.log(label, ((u.user + u.system) / N / 1000).toFixed(2), 'ms CPU');
}
await time('extractDocumentFields', (b) => extractDocumentFields(b, 'x'));
await time('readContentsThroughXref', (b) => readContentsThroughXref(b));
