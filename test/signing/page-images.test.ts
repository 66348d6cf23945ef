// The signing page shows stored page images instead of the PDF drawn by pdf.js (issue 31 › 6): the
// HTML holds them (srcset, the first one eager), the page's data names them, and
// /s/:slug/documents/:uuid/pages/:page serves them cached for good; a document without them (not drawn, a DOCX copy filled for the
// submission) keeps the pdf.js path.
import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { generatedDocumentKey } from '../../src/services/submissions/generated-documents';
import { SIGNING_IMAGE_WIDTHS } from '../../src/services/signing/page-images';
import { REQUEUE_AFTER_MS } from '../../src/services/templates/thumbnail-jobs';
import { thumbnailKey } from '../../src/services/templates/thumbnails';
import { api, shardOf } from '../helpers';
import { deliver, throughWorker } from '../thumbnail-fixtures';
import { signingFixture, type Fixture } from './fixtures';

async function documentKey(f: Fixture): Promise<{ r2Key: string; submissionSlug: string }> {
  const db = await shardOf(f.account.accountId);
  const row = await db
    .prepare('SELECT r2_key FROM template_documents WHERE uuid = ?')
    .bind(f.documents[0].uuid)
    .first<{ r2_key: string }>();
  const submission = await db.prepare('SELECT slug FROM submissions WHERE id = ?').bind(f.submissionId).first<{ slug: string }>();
  return { r2Key: row!.r2_key, submissionSlug: submission!.slug };
}

/** A marker with WebP's signature (RIFF….WEBP) for every page (the fixture's PDF has 2) at every signing width. */
async function storeImages(r2Key: string): Promise<void> {
  for (const width of SIGNING_IMAGE_WIDTHS)
    for (const page of [1, 2])
      await env.FILES.put(thumbnailKey(r2Key, width, page, 'webp'), `RIFF\0\0\0\0WEBP ${width} ${page}`, {
        httpMetadata: { contentType: 'image/webp' },
      });
}

function pageData(html: string) {
  return JSON.parse(/<script type="application\/json" id="signing-data">(.*?)<\/script>/s.exec(html)![1]);
}

describe('page images on the signing page', () => {
  it('puts the stored page images in the HTML at the widths the screen chooses from, the first one first in line', async () => {
    const f = await signingFixture();
    await storeImages((await documentKey(f)).r2Key);
    const slug = f.submitters[0].slug;
    const res = await api('GET', `/s/${slug}`);
    const images = pageData(res.text).documents[0].page_images;
    expect(images.widths).toEqual([400, 800, 1600]);
    expect(images.url).toMatch(new RegExp(`^/s/${slug}/documents/${f.documents[0].uuid}/pages/\\{page\\}\\?w=\\{width\\}&v=[0-9a-f]{12}$`));
    // The pages are in the HTML with their images, so the first one shows before the page's script runs.
    const srcset = (page: number) =>
      [400, 800, 1600]
        .map((w) => `${images.url.replace('{page}', String(page)).replace('{width}', String(w))} ${w}w`)
        .join(', ')
        .replace(/&/g, '&amp;');
    const imgs = [...res.text.matchAll(/<img class="page-image"[^>]*>/g)].map((m) => m[0]);
    expect(imgs).toHaveLength(2);
    expect(imgs[0]).toContain(` srcset="${srcset(1)}"`);
    expect(imgs[0]).toContain('fetchpriority="high"');
    // The next pages wait for the page's script, which loads them after the first, as they near the screen.
    expect(imgs[1]).toContain(` data-srcset="${srcset(2)}"`);
    expect(imgs[1]).not.toContain(' srcset=');
  });

  it('serves a page image with a year of caching, and refuses a width it does not draw', async () => {
    const f = await signingFixture();
    await storeImages((await documentKey(f)).r2Key);
    const slug = f.submitters[0].slug;
    const url: string = pageData((await api('GET', `/s/${slug}`)).text).documents[0].page_images.url;
    const res = await api('GET', url.replace('{page}', '2').replace('{width}', '800'));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/webp');
    expect(res.headers.get('Cache-Control')).toBe('private, max-age=31536000, immutable');
    expect(res.text).toBe('RIFF\0\0\0\0WEBP 800 2');
    expect((await api('GET', url.replace('{page}', '2').replace('{width}', '200'))).status).toBe(404);
    expect((await api('GET', url.replace('{page}', '3').replace('{width}', '800'))).status).toBe(404);
  });

  it(
    'queues the WebP drawing of a document without images, which a batch then draws for the page to use',
    { timeout: 120_000 },
    async () => {
      const f = await signingFixture();
      const slug = f.submitters[0].slug;
      // The upload queued the same batch a moment ago; an isolate queues a batch again only after 30 s.
      vi.setSystemTime(Date.now() + REQUEUE_AFTER_MS + 1000);
      const opened = await throughWorker('GET', `/s/${slug}`, f.account.token).finally(() => vi.useRealTimers());
      expect(opened.status).toBe(200);
      const batch = opened.sent.find((body) => body.format === 'webp');
      expect(batch).toMatchObject({ type: 'thumbnails', accountId: f.account.accountId, widths: [400, 800, 1600], format: 'webp' });
      expect((await deliver([batch!])).explicitAcks).toHaveLength(1);
      const { r2Key } = await documentKey(f);
      for (const width of SIGNING_IMAGE_WIDTHS) {
        const object = await env.FILES.get(thumbnailKey(r2Key, width, 2, 'webp'));
        const bytes = new Uint8Array(await object!.arrayBuffer());
        expect(String.fromCharCode(...bytes.subarray(0, 4), ...bytes.subarray(8, 12))).toBe('RIFFWEBP');
      }
      expect(pageData((await api('GET', `/s/${slug}`)).text).documents[0].page_images.widths).toEqual([400, 800, 1600]);
    },
  );

  it('leaves a document whose images are not drawn yet to pdf.js, its page containers empty', async () => {
    const f = await signingFixture();
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(pageData(res.text).documents[0].page_images).toBeUndefined();
    expect(res.text).not.toContain('<img class="page-image"');
    expect(res.text.match(/<div class="page" data-page="\d"/g)).toHaveLength(2);
    expect((await api('GET', `/s/${f.submitters[0].slug}/documents/${f.documents[0].uuid}/pages/1?w=800`)).status).toBe(404);
  });

  it("does not show the template's images of a document the submission has its own filled copy of", async () => {
    const f = await signingFixture();
    const { r2Key, submissionSlug } = await documentKey(f);
    await storeImages(r2Key);
    await env.FILES.put(generatedDocumentKey({ r2Key }, submissionSlug), '%PDF-1.7 filled copy');
    const slug = f.submitters[0].slug;
    expect(pageData((await api('GET', `/s/${slug}`)).text).documents[0].page_images).toBeUndefined();
    expect((await api('GET', `/s/${slug}/documents/${f.documents[0].uuid}/pages/1?w=800`)).status).toBe(404);
  });

  it('refuses the page images of a signer whose turn has not come', async () => {
    const f = await signingFixture({
      roles: ['First', 'Second'],
      fields: [
        { name: 'A', type: 'text', role: 'First' },
        { name: 'B', type: 'text', role: 'Second' },
      ],
    });
    await storeImages((await documentKey(f)).r2Key);
    expect((await api('GET', `/s/${f.submitters[1].slug}/documents/${f.documents[0].uuid}/pages/1?w=800`)).status).toBe(404);
  });
});
