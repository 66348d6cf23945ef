// Template page thumbnails (spec › Other endpoints: thumbnails): PNGs in R2 beside each document's PDF,
// keyed by width and page, drawn by Browser Rendering on request or in the background.
import type { TemplateDocument } from '../../db/schema/index';
import { renderPageImages } from '../rendering/page-images';
import { closeBrowser, openBrowser } from '../rendering/sandboxed-page';

export const THUMBNAIL_WIDTH = { min: 50, max: 1600, default: 400 } as const;

export type ThumbnailDeps = { bucket: R2Bucket; browser: Fetcher | undefined; assets: Fetcher };

export class DocumentFileMissing extends Error {}

/** Thumbnails live under the document's own key: a replaced document (new key) never shows old ones. */
export function thumbnailKey(documentR2Key: string, width: number, page: number): string {
  return `${documentR2Key}/thumbnails/w${width}/p${page}.png`;
}

const PNG_METADATA = { httpMetadata: { contentType: 'image/png' } };

/**
 * Draws and stores the pages of `document` at `width` that are not stored yet (all pages unless
 * `pages` says which). Idempotent: a second run finds them stored and draws nothing. Returns what it
 * drew, by page number.
 */
export async function generateThumbnails(
  deps: ThumbnailDeps,
  document: Pick<TemplateDocument, 'r2Key' | 'pageCount'>,
  width: number,
  pages: number[] = Array.from({ length: document.pageCount }, (_, i) => i + 1),
): Promise<Map<number, Uint8Array>> {
  const stored = await Promise.all(pages.map((page) => deps.bucket.head(thumbnailKey(document.r2Key, width, page))));
  const missing = pages.filter((_, i) => !stored[i]);
  const drawn = new Map<number, Uint8Array>();
  if (missing.length === 0) return drawn;
  const object = await deps.bucket.get(document.r2Key);
  if (!object) throw new DocumentFileMissing(`No stored file at ${document.r2Key}.`);
  const pdf = new Uint8Array(await object.arrayBuffer());
  const browser = await openBrowser(deps.browser);
  try {
    await renderPageImages(browser, deps.assets, pdf, missing, width, async (page, png) => {
      drawn.set(page, png);
      await deps.bucket.put(thumbnailKey(document.r2Key, width, page), png, PNG_METADATA);
    });
  } finally {
    await closeBrowser(browser);
  }
  return drawn;
}

/** One page's PNG: from R2, or drawn and stored now when it is not there yet. */
export async function thumbnailFor(
  deps: ThumbnailDeps,
  document: Pick<TemplateDocument, 'r2Key' | 'pageCount'>,
  page: number,
  width: number,
): Promise<Uint8Array> {
  const object = await deps.bucket.get(thumbnailKey(document.r2Key, width, page));
  if (object) return new Uint8Array(await object.arrayBuffer());
  const drawn = await generateThumbnails(deps, document, width, [page]);
  const png = drawn.get(page);
  if (png) return png;
  // Stored meanwhile by a concurrent run.
  const again = await deps.bucket.get(thumbnailKey(document.r2Key, width, page));
  if (!again) throw new DocumentFileMissing(`Thumbnail ${page} of ${document.r2Key} was not stored.`);
  return new Uint8Array(await again.arrayBuffer());
}
