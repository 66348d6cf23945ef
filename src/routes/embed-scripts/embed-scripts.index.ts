// The embed scripts (decisions.md › Embedding): the signing form's `/embed/v1/form.js` (legacy `/js/form.js`)
// and the template builder's `/embed/v1/builder.js` (legacy `/js/builder.js`), bundles scripts/vendor-assets.mjs
// writes to /vendor/embed/.
import type { Hono } from 'hono';
import type { AppEnv } from '../../app-env';

export const FORM_SCRIPT_PATHS = ['/embed/v1/form.js', '/js/form.js'] as const;
/** The template builder's embed script (<template-builder>), bundled to /vendor/embed/builder.js. */
export const BUILDER_SCRIPT_PATHS = ['/embed/v1/builder.js', '/js/builder.js'] as const;

export function mountEmbedScripts(app: Hono<AppEnv>) {
  const scripts = [
    ...FORM_SCRIPT_PATHS.map((path) => [path, '/vendor/embed/form.js']),
    ...BUILDER_SCRIPT_PATHS.map((path) => [path, '/vendor/embed/builder.js']),
  ];
  for (const [path, assetPath] of scripts) {
    app.get(path, async (c) => {
      const asset = await c.env.ASSETS.fetch(new Request(new URL(assetPath, c.req.url)));
      if (!asset.ok) return c.json({ error: 'The embed script is not built; run node scripts/vendor-assets.mjs.' }, 503);
      // Hosts load it from their own pages: short caching, so a fix reaches them within minutes.
      return new Response(asset.body, {
        headers: {
          'Content-Type': 'text/javascript; charset=utf-8',
          'Cache-Control': 'public, max-age=300',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    });
  }
}
