// bench/docgen's measured worker (not deployed):
//   POST /thumbnails?width=N with a PDF body stores it in R2 and runs drawThumbnails (every page drawn
//   and stored, as a thumbnail batch does) on it; answers the page count and the time taken.
//   Each request's launches are taken from a fresh account's budget (the RateLimiter Durable Object, as
//   in the service), so the budget's call is measured but never refuses a run.
//   POST /docx with a DOCX body runs convertDocxUploads, the code POST /api/templates/docx uses (bounded
//   unzip, variables, docxtemplater, mammoth, one Browser Rendering session printing the HTML); answers
//   the printed PDF's page count.
//   POST /docx/page with a DOCX body answers what the floor prints: the HTML mammoth made and the print
//   options the service passes to Chromium.
import { inspectPdf } from '../../src/services/pdf/inspect-pdf';
import { printOptions } from '../../src/services/rendering/html-to-pdf';
import { convertDocxUploads, printableDocx } from '../../src/services/templates/docx-documents';
import { unzipDocx } from '../../src/services/documents/docx';
import { drawThumbnails } from '../../src/services/templates/thumbnails';
import { browserLauncher } from '../../src/services/rendering/browser-launches';
import type { RateLimiter } from '../../durable-objects/rate-limiter';

export { RateLimiter } from '../../durable-objects/rate-limiter';

type Env = { FILES: R2Bucket; ASSETS: Fetcher; BROWSER: Fetcher; RATE_LIMITER: DurableObjectNamespace<RateLimiter> };

/** A launcher whose budget no other request shares. */
function launcherOf(env: Env) {
  return browserLauncher(env, Math.floor(Math.random() * 2 ** 40));
}

async function thumbnails(request: Request, env: Env, url: URL): Promise<Response> {
  const width = Number(url.searchParams.get('width') ?? 400);
  const pdf = new Uint8Array(await request.arrayBuffer());
  const { pageCount } = await inspectPdf(pdf);
  const r2Key = `bench/${crypto.randomUUID()}`;
  await env.FILES.put(r2Key, pdf);
  const started = performance.now();
  const drawn = await drawThumbnails({ bucket: env.FILES, launcher: launcherOf(env), assets: env.ASSETS }, [{ r2Key, pageCount }], [width]);
  return Response.json({ pages: drawn.drawn, ms: performance.now() - started });
}

async function docx(request: Request, env: Env): Promise<Response> {
  const uploads = [
    {
      label: 'bench.docx',
      name: 'bench.docx',
      bytes: new Uint8Array(await request.arrayBuffer()),
      contentType: 'application/octet-stream',
    },
  ];
  await convertDocxUploads(launcherOf(env), uploads);
  const { pageCount } = await inspectPdf(uploads[0].bytes);
  return Response.json({ pages: pageCount });
}

async function docxPage(request: Request): Promise<Response> {
  const page = await printableDocx(unzipDocx(new Uint8Array(await request.arrayBuffer())), {});
  return Response.json({ html: page.html, options: printOptions({ ...page, size: 'Letter' }) });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/thumbnails') return thumbnails(request, env, url);
    if (request.method === 'POST' && url.pathname === '/docx') return docx(request, env);
    if (request.method === 'POST' && url.pathname === '/docx/page') return docxPage(request);
    return new Response('not found', { status: 404 });
  },
};
