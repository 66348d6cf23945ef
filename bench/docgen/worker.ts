// bench/docgen's measured worker: POST /thumbnails?width=N with a PDF body stores it in R2 and runs
// generateThumbnails (every page drawn and stored) on it; answers the page count and the time taken.
import { generateThumbnails } from '../../src/services/templates/thumbnails';
import { inspectPdf } from '../../src/services/documents/pdf';

type Env = { FILES: R2Bucket; ASSETS: Fetcher; BROWSER: Fetcher };

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.pathname !== '/thumbnails') return new Response('not found', { status: 404 });
    const width = Number(url.searchParams.get('width') ?? 400);
    const pdf = new Uint8Array(await request.arrayBuffer());
    const { pageCount } = await inspectPdf(pdf);
    const r2Key = `bench/${crypto.randomUUID()}`;
    await env.FILES.put(r2Key, pdf);
    const started = performance.now();
    const drawn = await generateThumbnails({ bucket: env.FILES, browser: env.BROWSER, assets: env.ASSETS }, { r2Key, pageCount }, width);
    return Response.json({ pages: drawn.size, ms: performance.now() - started });
  },
};
