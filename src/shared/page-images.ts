// The signing page's page images (issue 31 › 6): the srcset and sizes of each page's <img> in the HTML
// (src/signing-page/document-pages.tsx).
import type { DocumentView } from './template-schema';

type PageImages = NonNullable<DocumentView['page_images']>;

/** One page's candidates: `url 400w, url 800w, …`. */
export function pageImageSrcset(images: PageImages, page: number): string {
  const url = images.url.replace('{page}', String(page));
  return images.widths.map((width) => `${url.replace('{width}', String(width))} ${width}w`).join(', ');
}

/**
 * The page's width on screen (main is at most 980 px wide with 12 px of padding each side: styles.ts),
 * counted as two thirds on screens of 2.5 device pixels per CSS pixel and more, so a phone's density is
 * counted up to 2, as pdf.js draws (src/browser/pdf-pages.ts): a 390 px phone at 3× takes the 800 px
 * image, not the 1600 px one.
 */
export const PAGE_IMAGE_SIZES = '(min-resolution: 2.5dppx) calc((min(100vw, 980px) - 24px) * 2 / 3), calc(min(100vw, 980px) - 24px)';
