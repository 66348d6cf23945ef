// The floor for bench/templates: the least work a template upload must do — read the PDF's pages with
// pdf-lib and put the bytes in R2 — behind the same HTTP hop, in the same runtime.
import { ParseSpeeds, PDFDocument } from 'pdf-lib';

export default {
  async fetch(request, env) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest, ignoreEncryption: true });
    const pages = pdf.getPages().map((page) => page.getSize());
    await env.FILES.put(`floor/${crypto.randomUUID()}`, bytes, { httpMetadata: { contentType: 'application/pdf' } });
    return Response.json({ page_count: pages.length }, { status: 201 });
  },
};
