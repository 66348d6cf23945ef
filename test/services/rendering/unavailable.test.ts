// Without the BROWSER binding: HTML templates are refused with 503 before anything is stored, and a
// missing thumbnail cannot be drawn while stored ones are still served.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/errors';
import { browserLauncher } from '../../../src/services/rendering/browser-launches';
import { RenderingUnavailable } from '../../../src/services/rendering/sandboxed-page';
import { createHtmlTemplate } from '../../../src/services/templates/create-html-template';
import type { TemplateContext } from '../../../src/services/templates/template-records';
import { drawThumbnails, storedThumbnail, thumbnailKey } from '../../../src/services/templates/thumbnails';
import { makePdf } from '../../fixtures/pdfs';
import { launchesCounted } from '../../rendering-fixtures';

const accountId = 1_900_000_000 + Math.floor(Math.random() * 1_000_000);
const launcher = browserLauncher({ BROWSER: undefined, RATE_LIMITER: env.RATE_LIMITER }, accountId);

describe('rendering without the BROWSER binding', () => {
  it('refuses an HTML template with 503 and a sentence', async () => {
    // Rendering comes first; the context is never reached, so an empty one shows that nothing is stored.
    const error = await createHtmlTemplate({} as TemplateContext, launcher, { size: 'A4', documents: [{ html: '<p>x</p>' }] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).error).toBe('HTML could not be rendered because the rendering browser is unavailable; retry in a minute.');
  });

  it('cannot draw a missing thumbnail, and counts no launch for it', async () => {
    const r2Key = `templates/0/${crypto.randomUUID()}`;
    await env.FILES.put(r2Key, await makePdf(1));
    const deps = { bucket: env.FILES, launcher, assets: env.ASSETS };
    await expect(drawThumbnails(deps, [{ r2Key, pageCount: 1 }], [200])).rejects.toBeInstanceOf(RenderingUnavailable);
    expect(await launchesCounted(accountId)).toBe(0);
  });

  it('still serves a stored thumbnail', async () => {
    const r2Key = `templates/0/${crypto.randomUUID()}`;
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await env.FILES.put(thumbnailKey(r2Key, 200, 1), png);
    expect(await storedThumbnail(env.FILES, { r2Key, pageCount: 1 }, 1, 200)).toEqual(png);
  });
});
