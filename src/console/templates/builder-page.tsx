// /templates/new and /templates/{id}/edit: the template builder (issue 15 › 4). The page is a frame the
// builder's script (src/console/builder/, bundled to /vendor/builder/builder.js) fills from the templates
// API; it works through the same JSON API an integrator uses, with the session's cookie and CSRF token.
import type { Context, MiddlewareHandler } from 'hono';
import { raw } from 'hono/html';
import type { AppEnv } from '../../app-env';
import { findTemplate } from '../../db/queries/templates';
import { notFoundPage, renderPage, rightsOf } from '../settings/page-parts';

export const BUILDER_SCRIPT = '/vendor/builder/builder.js';

/** The console's policy plus what pdf.js needs: its worker and the fonts it embeds as data URLs. */
export const BUILDER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function builderPageCsp(): MiddlewareHandler<AppEnv> {
  return async function builderPageCsp(c, next) {
    await next();
    if (c.res.headers.has('Content-Security-Policy')) c.res.headers.set('Content-Security-Policy', BUILDER_CSP);
  };
}

/** The builder's layout: palette and roles, the pages, the property panel; areas positioned in % of their page. */
export const BUILDER_CSS = `
.builder-bar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;background:#fff;padding:8px 12px;border-radius:8px;position:sticky;top:0;z-index:5;box-shadow:0 1px 3px rgba(0,0,0,.1)}
.builder-bar label{margin:0}.builder-bar input{width:auto;min-width:160px}.builder-bar [role=status]{margin:0}
.builder-grid{display:grid;grid-template-columns:220px minmax(0,1fr) 300px;gap:12px;margin-top:12px}
@media (max-width:900px){.builder-grid{grid-template-columns:1fr}}
.builder-side{position:sticky;top:64px;align-self:start;max-height:calc(100vh - 72px);overflow:auto}
@media (max-width:900px){.builder-side{position:static;max-height:none}}
.builder-side section{background:#fff;border-radius:8px;padding:12px;margin-bottom:12px}.builder-side h2{font-size:18px;margin:0 0 8px}
.palette{display:flex;flex-wrap:wrap;gap:6px}.palette button{touch-action:none;padding:6px 10px;font-size:14px}
#builder-pages{max-width:900px;margin:0 auto}.document{margin-bottom:16px}
.page{position:relative;background:#fff;margin:0 0 12px;box-shadow:0 1px 4px rgba(0,0,0,.2);width:100%}
.page canvas{position:absolute;inset:0;width:100%;height:100%}
.area{position:absolute;border:2px solid #1d4ed8;background:rgba(29,78,216,.12);cursor:move;touch-action:none;font-size:12px;overflow:hidden;color:#1e3a8a}
.area.selected{border-color:#b45309;background:rgba(180,83,9,.15)}.area.invalid{border-color:#b91c1c;border-style:dashed}
.area:focus-visible{outline:3px solid #111;outline-offset:1px}.area-name{pointer-events:none;padding:0 2px;white-space:nowrap}
.handle{position:absolute;right:0;bottom:0;width:12px;height:12px;background:#1d4ed8;cursor:nwse-resize}
.drag-ghost{position:fixed;pointer-events:none;background:#1d4ed8;color:#fff;padding:2px 6px;border-radius:4px;z-index:10}
.roles{padding-left:20px}.roles li{display:flex;gap:4px;align-items:center;margin-bottom:4px}.roles input[type=text],.roles input:not([type]){flex:1;min-width:0;padding:4px}
button.small{padding:2px 8px;font-size:14px}button.link{background:none;color:#b91c1c;padding:0;text-decoration:underline;text-align:left}
.check{display:flex;gap:8px;align-items:center}.check label{margin:6px 0;font-weight:600}.prop label{margin:8px 0 2px}
fieldset{border:1px solid #d1d5db;border-radius:6px;margin:10px 0;padding:8px}
`;

function viewerOnly(c: Context<AppEnv>) {
  return renderPage(c, {
    title: 'Template builder',
    section: 'templates',
    children: (
      <div class="card">
        <p>Viewers can read templates; editors and admins build them.</p>
      </div>
    ),
  });
}

export async function newTemplatePage(c: Context<AppEnv>) {
  if (!rightsOf(c).canEdit) return viewerOnly(c);
  return renderPage(c, {
    title: 'New template',
    section: 'templates',
    script: BUILDER_SCRIPT,
    children: (
      <section class="card" aria-labelledby="upload-heading">
        <h2 id="upload-heading">Start from a PDF</h2>
        <form id="template-upload" data-upload="/templates/pdf">
          <label for="upload-name">Template name</label>
          <input id="upload-name" name="name" maxlength={255} />
          <label for="upload-file">PDF document</label>
          <input id="upload-file" name="file" type="file" accept="application/pdf,.pdf" required />
          <div class="actions">
            <button type="submit">Upload and open the builder</button>
          </div>
          <p role="status" aria-live="polite"></p>
        </form>
      </section>
    ),
  });
}

export async function builderPage(c: Context<AppEnv>) {
  const template = await findTemplate(c.var.scope.db, c.var.signedIn.account.id, c.req.param('id') ?? '');
  if (!template) return notFoundPage(c, 'templates', 'Template');
  if (!rightsOf(c).canEdit) return viewerOnly(c);
  return renderPage(c, {
    title: `Build: ${template.name}`,
    section: 'templates',
    script: BUILDER_SCRIPT,
    wide: true,
    children: (
      <>
        <style>{raw(BUILDER_CSS)}</style>
        <div id="template-builder" class="builder" data-template-id={template.publicId} data-api-base="/api">
          <p class="muted" id="builder-loading">
            Loading the template…
          </p>
        </div>
      </>
    ),
  });
}
