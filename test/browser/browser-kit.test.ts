// The browser kit's pure parts (src/browser): the framing-origin check every framed page makes before it
// posts a message, and the bounds on what the pdf.js loader reads, which are the service's own upload limits.
import { describe, expect, it } from 'vitest';
import { pagesOf, tooLargeSentence } from '../../src/browser/document-bounds';
import { framingOrigin } from '../../src/browser/framing-origin';
import { UPLOAD_LIMITS } from '../../src/services/documents/ingest';

const ALLOWED = ['https://host.example'];
const framed = { framed: true, ancestorOrigins: undefined, referrer: '' };

describe('framingOrigin', () => {
  it('names no origin for a page that is not framed, whatever its referrer says', () => {
    expect(
      framingOrigin({ framed: false, ancestorOrigins: ['https://host.example'], referrer: 'https://host.example/page' }, ALLOWED),
    ).toBeNull();
  });

  it('takes the first of location.ancestorOrigins when the account allows it', () => {
    expect(framingOrigin({ ...framed, ancestorOrigins: ['https://host.example', 'https://top.example'] }, ALLOWED)).toBe(
      'https://host.example',
    );
  });

  it('names no origin when the framing origin is not one the account allows', () => {
    expect(framingOrigin({ ...framed, ancestorOrigins: ['https://evil.example'] }, ALLOWED)).toBeNull();
  });

  it('prefers ancestorOrigins to a referrer that names an allowed origin', () => {
    expect(
      framingOrigin({ framed: true, ancestorOrigins: ['https://evil.example'], referrer: 'https://host.example/' }, ALLOWED),
    ).toBeNull();
  });

  it('falls back to the origin of the referrer where ancestorOrigins is missing or empty', () => {
    expect(framingOrigin({ ...framed, referrer: 'https://host.example/checkout?step=2' }, ALLOWED)).toBe('https://host.example');
    expect(framingOrigin({ ...framed, ancestorOrigins: [], referrer: 'https://host.example/' }, ALLOWED)).toBe('https://host.example');
  });

  it('names no origin without a referrer, or with one that is not a URL', () => {
    expect(framingOrigin(framed, ALLOWED)).toBeNull();
    expect(framingOrigin({ ...framed, referrer: 'not a url' }, ALLOWED)).toBeNull();
  });
});

describe('document bounds', () => {
  it('lets a download run up to the largest file the service stores and stops it one byte past', () => {
    expect(tooLargeSentence(UPLOAD_LIMITS.fileBytes)).toBeNull();
    expect(tooLargeSentence(UPLOAD_LIMITS.fileBytes + 1)).toBe('the file is larger than 20 MB, the most a document may be.');
  });

  it('draws the pages the service counted, never more than a template may have', () => {
    expect(pagesOf({ page_count: 3 })).toBe(3);
    expect(pagesOf({ page_count: UPLOAD_LIMITS.pagesPerTemplate + 1000 })).toBe(UPLOAD_LIMITS.pagesPerTemplate);
  });
});
