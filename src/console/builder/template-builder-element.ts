// The embed script for the template builder (/embed/v1/builder.js, legacy /js/builder.js): defines
// <template-builder data-token=… [data-template-id=…]>, which frames /embed/builder/{id}?token=… and
// re-dispatches the builder's browser messages as DOM events on the element: `load` and `saved`
// (decisions.md › issue 15 : embedded template builder). Globals: window.SigningService and the legacy
// window.SignService, shared with form.js (each element is defined once).
const EVENTS = new Set(['load', 'saved']);
const PREFIX = 'signing-service:';
const MIN_HEIGHT = 300;

/** Where this script came from: the service that serves the builder. Read while the script runs. */
const scriptOrigin = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  try {
    return src ? new URL(src).origin : window.location.origin;
  } catch {
    return window.location.origin;
  }
})();

/** The JWT's template (`sub` = `template:<id>`); the token is checked by the service, not here. */
export function templateIdOfToken(token: string): string | null {
  try {
    const json = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    const match = typeof json.sub === 'string' ? /^template:(.+)$/.exec(json.sub) : null;
    return match ? match[1] : null;
  } catch {
    return null;
  }
}

export class TemplateBuilderElement extends HTMLElement {
  static observedAttributes = ['data-token', 'data-template-id'];
  private frame: HTMLIFrameElement | null = null;
  private frameOrigin = '';
  private readonly onMessage = (event: MessageEvent) => this.receive(event);

  connectedCallback(): void {
    window.addEventListener('message', this.onMessage);
    if (!this.frame) void this.start();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
  }

  attributeChangedCallback(_name: string, before: string | null, after: string | null): void {
    if (before !== after && this.isConnected && this.frame) void this.start();
  }

  private async start(): Promise<void> {
    const token = this.dataset.token;
    if (!token) return void this.fail('data-token is missing: mint a builder token with POST /api/embed/token.');
    const id = this.dataset.templateId || templateIdOfToken(token);
    if (!id) return void this.fail('data-token is not a template builder token.');
    const base = this.dataset.origin || scriptOrigin;
    // Asked first, so that a refused token shows its reason here instead of a frame the service will not fill.
    try {
      const res = await fetch(`${base}/api/embed/template/${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
        return void this.fail(typeof body?.error === 'string' ? body.error : `The template builder could not be loaded (${res.status}).`);
      }
    } catch {
      return void this.fail('The template builder could not be loaded.');
    }
    const url = new URL(`/embed/builder/${encodeURIComponent(id)}`, base);
    url.searchParams.set('token', token);
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = this.dataset.title || 'Template builder';
    frame.referrerPolicy = 'origin';
    frame.style.cssText = `display:block;width:100%;border:0;height:${this.maxHeight()}px`;
    this.frameOrigin = url.origin;
    this.frame = frame;
    this.replaceChildren(frame);
  }

  private fail(message: string): void {
    const note = document.createElement('p');
    note.setAttribute('role', 'alert');
    note.textContent = message;
    this.replaceChildren(note);
    this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
  }

  /** The frame grows with the builder up to this (data-max-height, else 90% of the window, at least 600 px). */
  private maxHeight(): number {
    const set = Number(this.dataset.maxHeight);
    return Number.isFinite(set) && set > 0 ? set : Math.max(600, Math.round(window.innerHeight * 0.9));
  }

  private receive(event: MessageEvent): void {
    if (!this.frame || event.source !== this.frame.contentWindow || event.origin !== this.frameOrigin) return;
    const message = event.data as { type?: unknown; data?: Record<string, unknown> } | null;
    if (!message || typeof message.type !== 'string' || !message.type.startsWith(PREFIX)) return;
    const name = message.type.slice(PREFIX.length);
    const detail = message.data ?? {};
    if (name === 'resize') {
      const height = Number(detail.height);
      if (Number.isFinite(height)) this.frame.style.height = `${Math.max(MIN_HEIGHT, Math.min(height, this.maxHeight()))}px`;
      return;
    }
    if (EVENTS.has(name)) this.dispatchEvent(new CustomEvent(name, { detail }));
  }
}

if (!customElements.get('template-builder')) customElements.define('template-builder', TemplateBuilderElement);
const globals = window as unknown as Record<string, unknown>;
globals.SigningService = { ...(globals.SigningService as object | undefined), TemplateBuilderElement, version: 1 };
globals.SignService = globals.SigningService;
