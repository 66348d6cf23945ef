// A local HTTP server (Node side of the test run) that checks PDFs with the real poppler `pdfsig` and
// `qpdf --check` (and extracts its text with `pdftotext`), so tests running inside workerd can validate sealed output with the same tools a
// person would use. `POST /page-image?reference=<name>&page=<n>` compares a page (1 by default) with a reference image (page-images.ts).
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { comparePageImage } from './page-images';

export type ToolResult = { code: number; output: string };

function run(command: string, args: string[]): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

export async function startPdfToolsServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://tools.local');
    if (url.pathname === '/page-image') {
      try {
        // UPDATE_PAGE_IMAGES=1 in the shell running vitest rewrites the references (test/fixtures/docx/README.md),
        // except for comparisons against another document's reference (`readonly=1`).
        const update = process.env.UPDATE_PAGE_IMAGES === '1' && url.searchParams.get('readonly') !== '1';
        const page = Number(url.searchParams.get('page') ?? 1);
        const comparison = await comparePageImage(Buffer.concat(chunks), url.searchParams.get('reference') ?? '', page, update);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(comparison));
      } catch (error) {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end((error as Error).message);
      }
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'pdf-tools-'));
    try {
      const file = join(dir, 'document.pdf');
      await writeFile(file, Buffer.concat(chunks));
      // PDF_TOOLS_KEEP=<dir> keeps every checked PDF, to look at what the tests produced.
      const keep = process.env.PDF_TOOLS_KEEP;
      if (keep) await mkdir(keep, { recursive: true }).then(() => copyFile(file, join(keep, `${Date.now()}-${chunks.length}.pdf`)));
      const [pdfsig, qpdf, text, bbox, fonts] = await Promise.all([
        run('pdfsig', [file]),
        run('qpdf', ['--check', file]),
        run('pdftotext', ['-enc', 'UTF-8', file, '-']),
        // Every word with its page and box (<page width height><word xMin yMin xMax yMax>), top-left origin.
        run('pdftotext', ['-enc', 'UTF-8', '-bbox', file, '-']),
        // The fonts of every page: name, type, embedded, subset, ToUnicode.
        run('pdffonts', [file]),
      ]);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ pdfsig, qpdf, text, bbox, fonts }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('pdf tools server did not bind');
  return { url: `http://127.0.0.1:${address.port}`, server };
}
