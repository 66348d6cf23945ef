// The documents of the signing form, in the HTML itself (issue 31 › 6): a container per page, sized from
// the stored dimensions, holding the page's stored image when the document has them, so the first page
// shows as soon as the HTML and its image arrive, before the page's script. The script
// (src/signing-page/client/documents.ts) adopts these containers, draws documents without images with
// pdf.js, and places the fields over them.
import { DOCUMENT_LIMITS } from '../shared/document-limits';
import { PAGE_IMAGE_SIZES, pageImageSrcset } from '../shared/page-images';
import { pageSize, type DocumentView } from '../shared/template-schema';

export function DocumentPages(props: { documents: DocumentView[] }) {
  return (
    <>
      {props.documents.map((doc, index) => (
        <section class="document" data-document={doc.uuid} aria-label={doc.filename}>
          {Array.from({ length: Math.min(doc.page_count, DOCUMENT_LIMITS.pagesPerTemplate) }, (_, i) => i + 1).map((n) => {
            const size = pageSize(doc, n);
            return (
              <div class="page" data-page={String(n)} style={`aspect-ratio:${size.width}/${size.height}`}>
                {doc.page_images ? <PageImage doc={doc} page={n} eager={index === 0 && n === 1} /> : null}
              </div>
            );
          })}
        </section>
      ))}
    </>
  );
}

/**
 * A page's stored image at the width the screen needs (src/shared/page-images.ts). The first page of the
 * first document loads at once and first in line; the others carry their candidates in `data-srcset`,
 * which the page's script turns into `srcset` once the first page is in and as they near the screen (a
 * browser's own lazy loading starts pages thousands of pixels ahead, which on a slow network share the
 * line with the first page).
 */
function PageImage(props: { doc: DocumentView; page: number; eager: boolean }) {
  const size = pageSize(props.doc, props.page);
  const srcset = pageImageSrcset(props.doc.page_images!, props.page);
  return (
    <img
      class="page-image"
      alt=""
      width={String(Math.round(size.width))}
      height={String(Math.round(size.height))}
      decoding="async"
      fetchpriority={props.eager ? 'high' : undefined}
      elementtiming={props.eager ? 'first-page' : undefined}
      sizes={PAGE_IMAGE_SIZES}
      srcset={props.eager ? srcset : undefined}
      data-srcset={props.eager ? undefined : srcset}
    />
  );
}
