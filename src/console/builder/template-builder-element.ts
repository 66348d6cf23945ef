// The embed script for the template builder (/embed/v1/builder.js, legacy /js/builder.js): defines
// <template-builder data-token=… [data-template-id=…]>, which frames /embed/builder/{id}?token=… and
// re-dispatches the builder's browser messages as DOM events on the element: `load` and `saved`
// (decisions.md › issue 15 : embedded template builder). The framing is the browser kit's
// (src/browser/frame-host.ts). Globals: window.SigningService and the legacy window.SignService, shared
// with form.js (each element is defined once).
import { bearerAuth, createApiClient } from '../../browser/api';
import { currentScriptOrigin, FrameHostElement, publishGlobals, tokenSubject } from '../../browser/frame-host';

/** Where this script came from: the service that serves the builder. Read while the script runs. */
const scriptOrigin = currentScriptOrigin();

export class TemplateBuilderElement extends FrameHostElement {
  static observedAttributes = ['data-token', 'data-template-id'];
  protected readonly defaultTitle = 'Template builder';
  protected readonly events = new Set(['load', 'saved']);
  protected readonly minHeight = 300;
  protected readonly maxHeightFloor = 600;

  protected async frameUrl(): Promise<URL | null> {
    const token = this.dataset.token;
    if (!token) return this.fail('data-token is missing: mint a builder token with POST /api/embed/token.');
    // The JWT's template (`sub` = `template:<id>`).
    const id = this.dataset.templateId || tokenSubject(token, /^template:(.+)$/);
    if (!id) return this.fail('data-token is not a template builder token.');
    const base = this.dataset.origin || scriptOrigin;
    // Asked first, so that a refused token shows its reason here instead of a frame the service will not fill.
    const asked = await createApiClient(base, bearerAuth(token)).call('GET', `/api/embed/template/${encodeURIComponent(id)}`);
    if (asked.status === 0) return this.fail('The template builder could not be loaded.');
    if (!asked.ok)
      return this.fail(
        typeof asked.json?.error === 'string' ? asked.json.error : `The template builder could not be loaded (${asked.status}).`,
      );
    const url = new URL(`/embed/builder/${encodeURIComponent(id)}`, base);
    url.searchParams.set('token', token);
    return url;
  }
}

if (!customElements.get('template-builder')) customElements.define('template-builder', TemplateBuilderElement);
publishGlobals({ TemplateBuilderElement, version: 1 });
