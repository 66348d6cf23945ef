// The embed script (/embed/v1/form.js, legacy /js/form.js): defines <signing-form data-src=… data-token=…>,
// which frames a signing page with the host's options and re-dispatches the page's browser messages as
// DOM events on the element (decisions.md › Embedding (issue 15): embedded signing form).
// Globals: window.SigningService, and the legacy window.SignService.

const EVENTS = new Set(['load', 'completed', 'declined', 'expired']);
const PREFIX = 'signing-service:';
/** CSS custom properties on the element (or inherited) that theme the form → the page's query parameter. */
const THEME_VARIABLES: Record<string, string> = {
  '--signing-primary-color': 'primary_color',
  '--signing-header-color': 'header_color',
  '--signing-background-color': 'background_color',
  '--signing-text-color': 'text_color',
  '--signing-border-radius': 'border_radius',
};
const MIN_HEIGHT = 200;

/** Where this script came from: the service, whose API the token path asks. Read while the script runs. */
const scriptOrigin = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  try {
    return src ? new URL(src).origin : window.location.origin;
  } catch {
    return window.location.origin;
  }
})();

type EmbedSubmission = {
  submission?: { submitters?: { id?: number; embed_src?: string }[] };
  options?: { submitter_id?: number | null; permissions?: string[] };
};

/** The JWT's `sub` when it names a submission (`submission:<id>`); the token is not checked here, the API does. */
export function submissionIdOfToken(token: string): string | null {
  try {
    const payload = token.split('.')[1];
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    const match = typeof json.sub === 'string' ? /^submission:(\d+)$/.exec(json.sub) : null;
    return match ? match[1] : null;
  } catch {
    return null;
  }
}

export class SigningFormElement extends HTMLElement {
  static observedAttributes = ['data-src', 'data-token'];
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
    const src = this.dataset.src || (this.dataset.token ? await this.srcFromToken(this.dataset.token) : null);
    if (!src) return;
    let url: URL;
    try {
      url = new URL(src, window.location.href);
    } catch {
      this.fail(`data-src is not a URL: ${src}`);
      return;
    }
    for (const [name, value] of Object.entries(this.options())) url.searchParams.set(name, value);
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = this.dataset.title || 'Signing form';
    // The page checks the embedding origin against the account's list; browsers without
    // location.ancestorOrigins learn it from the referrer.
    frame.referrerPolicy = 'origin';
    frame.style.cssText = `display:block;width:100%;border:0;height:${this.maxHeight()}px`;
    this.frameOrigin = url.origin;
    this.frame = frame;
    this.replaceChildren(frame);
  }

  /**
   * With only a token: the form of the one signer the token was minted for (GET /api/embed/submission/{id}
   * shows that signer's embed_src and nobody else's). A finished signer's form is framed too: its page
   * posts `completed`/`declined`, so the host learns it at once.
   */
  private async srcFromToken(token: string): Promise<string | null> {
    const id = submissionIdOfToken(token);
    if (!id) return this.fail('data-token is not a signing form token.');
    try {
      const res = await fetch(`${scriptOrigin}/api/embed/submission/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) return this.fail(`The signing form could not be loaded (${res.status}).`);
      const body = (await res.json()) as EmbedSubmission;
      if (!body.options?.permissions?.includes('sign')) return this.fail('This embed token only views the submission; mint one with the sign permission to open a form.');
      const signer = body.submission?.submitters?.find((s) => s.id === body.options?.submitter_id);
      return signer?.embed_src ?? this.fail('This embed token opens no signer’s form; mint one naming a signer (submitter_id).');
    } catch {
      return this.fail('The signing form could not be loaded.');
    }
  }

  private fail(message: string): null {
    const note = document.createElement('p');
    note.setAttribute('role', 'alert');
    note.textContent = message;
    this.replaceChildren(note);
    this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
    return null;
  }

  /** The data attributes and theme variables, as the signing page's query parameters. */
  private options(): Record<string, string> {
    const out: Record<string, string> = {};
    const { values, readonlyFields, language, completedRedirectUrl } = this.dataset;
    if (values) {
      try {
        out.values = JSON.stringify(JSON.parse(values));
      } catch {
        console.warn('<signing-form>: data-values is not JSON; ignored.');
      }
    }
    if (readonlyFields) out.readonly_fields = readonlyFields;
    if (language) out.language = language;
    if (completedRedirectUrl) out.completed_redirect_url = completedRedirectUrl;
    const style = getComputedStyle(this);
    for (const [variable, param] of Object.entries(THEME_VARIABLES)) {
      const value = style.getPropertyValue(variable).trim();
      if (value) out[param] = value;
    }
    return out;
  }

  /** The frame grows with its page up to this (data-max-height, else 90% of the window, at least 480 px). */
  private maxHeight(): number {
    const set = Number(this.dataset.maxHeight);
    return Number.isFinite(set) && set > 0 ? set : Math.max(480, Math.round(window.innerHeight * 0.9));
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
    if (!EVENTS.has(name)) return;
    const proceed = this.dispatchEvent(new CustomEvent(name, { detail, cancelable: true }));
    // The host page moves on after completion unless a listener called preventDefault().
    const redirect = this.dataset.completedRedirectUrl;
    if (name === 'completed' && proceed && redirect && /^https?:\/\//i.test(redirect)) window.location.assign(redirect);
  }
}

if (!customElements.get('signing-form')) customElements.define('signing-form', SigningFormElement);
const api = { SigningFormElement, version: 1 };
const globals = window as unknown as Record<string, unknown>;
globals.SigningService = { ...(globals.SigningService as object | undefined), ...api };
globals.SignService = globals.SigningService;
