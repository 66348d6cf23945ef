// The signing page's script is asked for at a versioned URL (its ETag in `?v=`), answered with a year of
// caching and `immutable`, so a signer coming back (the completed page, a reload) asks nothing again;
// an unversioned or stale request keeps the assets' own revalidating headers (issue 31 › 6).
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signingFixture } from '../signing/fixtures';

describe('versioned browser bundles', () => {
  it('the signing page names its script with the file version, answered cacheable for good', async () => {
    const f = await signingFixture();
    const html = (await api('GET', `/s/${f.submitters[0].slug}`)).text;
    const src = /<script type="module" src="([^"]+)"/.exec(html)![1];
    expect(src).toMatch(/^\/vendor\/signing\/signing-page\.js\?v=[\w.-]+$/);
    const res = await api('GET', src);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('javascript');
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
  });

  it('an unversioned or stale request is not cached for good', async () => {
    const plain = await api('GET', '/vendor/signing/signing-page.js');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('Cache-Control') ?? '').not.toContain('immutable');
    const stale = await api('GET', '/vendor/signing/signing-page.js?v=0123456789abcdef');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('Cache-Control') ?? '').not.toContain('immutable');
  });
});
