// The embed script for the signing form (decisions.md › Embedding): `/embed/v1/form.js` and its legacy
// path `/js/form.js`, both the bundle scripts/vendor-assets.mjs writes to /vendor/embed/form.js.
import type { Hono } from 'hono';
import type { AppEnv } from '../../env';

export const FORM_SCRIPT_PATHS = ['/embed/v1/form.js', '/js/form.js'] as const;
const FORM_SCRIPT_ASSET = '/vendor/embed/form.js';

export function mountEmbedScripts(app: Hono<AppEnv>) {
  for (const path of FORM_SCRIPT_PATHS) {
    app.get(path, async (c) => {
      const asset = await c.env.ASSETS.fetch(new Request(new URL(FORM_SCRIPT_ASSET, c.req.url)));
      if (!asset.ok) return c.json({ error: 'The embed script is not built; run node scripts/vendor-assets.mjs.' }, 503);
      // Hosts load it from their own pages: short caching, so a fix reaches them within minutes.
      return new Response(asset.body, {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' },
      });
    });
  }
}
