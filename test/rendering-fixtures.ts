// Helpers for the Browser Rendering tests: template documents as bytes, their text per page, and what
// the request recorder (test/global-setup/browser-rendering.mjs) saw.
import { env, SELF } from 'cloudflare:test';
import { checkPdf } from './pdf-tools';

/** A template document's stored PDF, downloaded through the API. */
export async function downloadDocument(token: string, templateId: string, documentUuid: string): Promise<Uint8Array> {
  const res = await SELF.fetch(`https://api.test/api/templates/${templateId}/documents/${documentUuid}`, {
    headers: { 'X-Auth-Token': token, 'CF-Connecting-IP': '198.51.100.7' },
  });
  if (res.status !== 200) throw new Error(`document download answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** pdftotext's text, one string per page (it ends each page with a form feed). */
export async function pageTexts(pdf: Uint8Array): Promise<string[]> {
  const { text } = await checkPdf(pdf);
  if (text.code !== 0) throw new Error(`pdftotext failed: ${text.output}`);
  const pages = text.output.split('\f');
  return pages[pages.length - 1].trim() === '' ? pages.slice(0, -1) : pages;
}

/** A fresh path prefix on the recorder, and the requests that reached it so far. */
export function recorderPath(label: string): { url: string; hits: () => Promise<string[]> } {
  const prefix = `${label}-${crypto.randomUUID()}`;
  return {
    url: `${env.HIT_RECORDER_URL}/${prefix}`,
    hits: async () => (await fetch(`${env.HIT_RECORDER_URL}/__hits/${encodeURIComponent(prefix)}`)).json(),
  };
}
