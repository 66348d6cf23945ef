// What bench/templates/run.mjs and profile.mjs share: the 50-page file and the upload they time.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { configHoldingQueue } from '../local-wrangler.mjs';

/** A 50-page letter-size PDF with a paragraph of text per page, like a long contract. */
export async function fiftyPagePdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= 50; i += 1) {
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

/**
 * POST /api/templates/pdf with `pdf` and one signature field as a multipart upload; the returned function
 * throws unless the answer is 201 with 50 pages. The body is encoded once, here: what is timed is the
 * request, not this process building the same form again (the floor's body is the bytes as they are).
 */
export async function uploadVia(apiUrl, token, pdf) {
  const form = new FormData();
  form.set('name', 'Bench contract');
  form.set('documents[0][file]', new File([pdf], 'contract.pdf', { type: 'application/pdf' }));
  form.set('fields', JSON.stringify([{ name: 'Signature', type: 'signature', areas: [{ page: 50, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] }]));
  const encoded = new Request(apiUrl, { method: 'POST', body: form });
  const headers = { 'X-Auth-Token': token, 'Content-Type': encoded.headers.get('content-type') };
  const body = new Uint8Array(await encoded.arrayBuffer());
  return async () => {
    const res = await fetch(`${apiUrl}/api/templates/pdf`, { method: 'POST', headers, body });
    const answer = await res.json();
    if (res.status !== 201 || answer.documents[0].page_count !== 50)
      throw new Error(`API answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  };
}

/**
 * How long the bench's own `wrangler dev` holds each message on the document queue (SEALING_QUEUE)
 * before its consumer gets it: longer than the bench runs, so the page images every upload queues (a
 * Chromium drawing 150 WebP images, issue 31 › 6) are not drawn on the same cores during the timed
 * uploads. The upload still sends its message; only the background drawing waits. Deployed, that
 * drawing runs on Browser Rendering, not beside the request.
 */
export const PAGE_IMAGES_HELD_SECONDS = 3600;

/** wrangler.toml with the document queue held (local-wrangler.mjs › configHoldingQueue). */
export function configHoldingPageImages(root) {
  return configHoldingQueue(root, 'SEALING_QUEUE', PAGE_IMAGES_HELD_SECONDS, 'templates');
}
