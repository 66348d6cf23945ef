// Template page thumbnails (spec › Other endpoints: thumbnails): PNGs in R2 beside each document's PDF,
// keyed by width and page. Reads only serve what is stored; drawing happens in background batches
// (thumbnail-jobs.ts), one browser launch for every missing page and width of a batch.
import type { TemplateDocument } from '../../db/schema/index';
import type { BrowserLauncher } from '../rendering/browser-launches';
import { renderPageImages, type ImageFormat, type PageImage } from '../rendering/page-images';
import { closeBrowser, openBrowser } from '../rendering/sandboxed-page';

/** The widths drawn (docs/decisions.md › Browser Rendering as a budget): any width asked for is one of these. */
export const THUMBNAIL_WIDTHS = [200, 400, 800, 1600] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

/** The widths a request may name (rounded to THUMBNAIL_WIDTHS), and the one used when it names none. */
export const THUMBNAIL_WIDTH = { min: 50, max: 1600, default: 400 } as const;

/** The drawn width nearest to `requested`; halfway between two goes to the larger (300 → 400). */
export function thumbnailWidth(requested: number): ThumbnailWidth {
  let best: ThumbnailWidth = THUMBNAIL_WIDTHS[0];
  for (const width of THUMBNAIL_WIDTHS) {
    if (Math.abs(width - requested) <= Math.abs(best - requested)) best = width;
  }
  return best;
}

export type ThumbnailDeps = { bucket: R2Bucket; launcher: BrowserLauncher; assets: Fetcher };

type ThumbnailDocument = Pick<TemplateDocument, 'r2Key' | 'pageCount'>;

/**
 * Thumbnails live under the document's own key: a replaced document (new key) never shows old ones. The
 * signing page's WebP copies (services/signing/page-images.ts) sit beside the PNGs.
 */
export function thumbnailKey(documentR2Key: string, width: number, page: number, format: ImageFormat = 'png'): string {
  return `${documentR2Key}/thumbnails/w${width}/p${page}.${format}`;
}

function thumbnailsPrefix(documentR2Key: string): string {
  return `${documentR2Key}/thumbnails/`;
}

const METADATA = { png: { httpMetadata: { contentType: 'image/png' } }, webp: { httpMetadata: { contentType: 'image/webp' } } };

/** A stored thumbnail, or null when it is not drawn yet. Never draws: a read launches no browser. */
export async function storedThumbnail(
  bucket: R2Bucket,
  document: ThumbnailDocument,
  page: number,
  width: number,
  format: ImageFormat = 'png',
): Promise<Uint8Array | null> {
  const object = await bucket.get(thumbnailKey(document.r2Key, width, page, format));
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

async function missingImages(
  bucket: R2Bucket,
  document: ThumbnailDocument,
  widths: readonly number[],
  format: ImageFormat,
): Promise<PageImage[]> {
  const wanted = widths.flatMap((width) => Array.from({ length: document.pageCount }, (_, i) => ({ page: i + 1, width, format })));
  const stored = await Promise.all(wanted.map(({ page, width }) => bucket.head(thumbnailKey(document.r2Key, width, page, format))));
  return wanted.filter((_, i) => !stored[i]);
}

export type DrawnThumbnails = {
  launched: boolean;
  drawn: number /** Documents whose PDF is not in R2 (skipped). */;
  missingFiles: string[];
};

/**
 * Draws and stores every page of `documents` at each of `widths` in `format` that is not stored yet, all in one
 * browser session, launched only when something is missing. Idempotent: a second run finds everything
 * stored and launches nothing. Throws BrowserLaunchesExhausted or RenderingUnavailable before drawing.
 */
export async function drawThumbnails(
  deps: ThumbnailDeps,
  documents: ThumbnailDocument[],
  widths: readonly number[],
  format: ImageFormat = 'png',
): Promise<DrawnThumbnails> {
  const result: DrawnThumbnails = { launched: false, drawn: 0, missingFiles: [] };
  const planned = await Promise.all(
    documents.map(async (document) => ({
      document,
      images: await missingImages(deps.bucket, document, widths, format),
      file: await deps.bucket.head(document.r2Key),
    })),
  );
  const work = planned.filter((w) => w.images.length > 0 && w.file);
  result.missingFiles = planned.filter((w) => w.images.length > 0 && !w.file).map((w) => w.document.r2Key);
  if (work.length === 0) return result;
  const browser = await openBrowser(deps.launcher, 'background');
  result.launched = true;
  try {
    for (const { document, images } of work) {
      const object = await deps.bucket.get(document.r2Key);
      if (!object) {
        result.missingFiles.push(document.r2Key);
        continue;
      }
      const pdf = new Uint8Array(await object.arrayBuffer());
      await renderPageImages(browser, deps.assets, pdf, images, async ({ page, width }, bytes) => {
        await deps.bucket.put(thumbnailKey(document.r2Key, width, page, format), bytes, METADATA[format]);
        result.drawn += 1;
      });
    }
  } finally {
    await closeBrowser(browser);
  }
  return result;
}

/** The bytes a document's thumbnails hold in R2, every width: what its storage counts for them. */
export async function storedThumbnailBytes(bucket: R2Bucket, documentR2Key: string): Promise<number> {
  let bytes = 0;
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix: thumbnailsPrefix(documentR2Key), cursor });
    for (const object of listed.objects) bytes += object.size;
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return bytes;
}
