// The custom element the embed scripts share (<signing-form>, <template-builder>): it frames one of the
// service's pages, grows the frame with the page's `resize` messages, and re-dispatches the page's other
// browser messages (src/browser/host-messages.ts) as DOM events on itself. Only messages from its own
// frame and that frame's origin are read. Each embed script says what to frame and which events it knows.

const PREFIX = 'signing-service:';

/** Where the running script came from: the service. Call it while the script runs (document.currentScript). */
export function currentScriptOrigin(): string {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  try {
    return src ? new URL(src).origin : window.location.origin;
  } catch {
    return window.location.origin;
  }
}

/** The id in a JWT's `sub` when `pattern` matches it (its first group); the token is not checked here, the service does. */
export function tokenSubject(token: string, pattern: RegExp): string | null {
  try {
    const json = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    const match = typeof json.sub === 'string' ? pattern.exec(json.sub) : null;
    return match ? match[1] : null;
  } catch {
    return null;
  }
}

export abstract class FrameHostElement extends HTMLElement {
  private frame: HTMLIFrameElement | null = null;
  private frameOrigin = '';
  private readonly onMessage = (event: MessageEvent) => this.receive(event);

  /** The page to frame, or null when the element said why not (fail). */
  protected abstract frameUrl(): Promise<URL | null>;
  /** The frame's accessible name when data-title does not give one. */
  protected abstract readonly defaultTitle: string;
  /** The page's events re-dispatched on the element. */
  protected abstract readonly events: ReadonlySet<string>;
  /** The frame's height is kept between this and maxHeight(). */
  protected abstract readonly minHeight: number;
  /** maxHeight()'s floor when data-max-height is not set. */
  protected abstract readonly maxHeightFloor: number;

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
    const url = await this.frameUrl();
    if (!url) return;
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = this.dataset.title || this.defaultTitle;
    // The page checks the embedding origin against the account's list; browsers without
    // location.ancestorOrigins learn it from the referrer.
    frame.referrerPolicy = 'origin';
    frame.style.cssText = `display:block;width:100%;border:0;height:${this.maxHeight()}px`;
    this.frameOrigin = url.origin;
    this.frame = frame;
    this.replaceChildren(frame);
    this.framed(frame);
  }

  /** After `frame` was placed (each time data-src or data-token changes). */
  protected framed(_frame: HTMLIFrameElement): void {}

  /**
   * The DOM event a page message becomes: its name and `detail`, or null to drop it. By default the page's
   * own event name and data, for the names in `events`; DocuSeal's elements rename and reshape them.
   */
  protected eventOf(name: string, data: Record<string, unknown>): { name: string; detail: Record<string, unknown> } | null {
    return this.events.has(name) ? { name, detail: data } : null;
  }

  /** Shows `message` in place of the frame and dispatches `error`; null, for the callers' returns. */
  protected fail(message: string): null {
    const note = document.createElement('p');
    note.setAttribute('role', 'alert');
    note.textContent = message;
    this.replaceChildren(note);
    this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
    return null;
  }

  /** The frame grows with its page up to this (data-max-height, else 90% of the window, at least maxHeightFloor). */
  private maxHeight(): number {
    const set = Number(this.dataset.maxHeight);
    return Number.isFinite(set) && set > 0 ? set : Math.max(this.maxHeightFloor, Math.round(window.innerHeight * 0.9));
  }

  /** After an event was dispatched; `proceed` is false when a listener called preventDefault(). */
  protected dispatched(_name: string, _proceed: boolean): void {}

  private receive(event: MessageEvent): void {
    if (!this.frame || event.source !== this.frame.contentWindow || event.origin !== this.frameOrigin) return;
    const message = event.data as { type?: unknown; data?: Record<string, unknown> } | null;
    if (!message || typeof message.type !== 'string' || !message.type.startsWith(PREFIX)) return;
    const name = message.type.slice(PREFIX.length);
    const detail = message.data ?? {};
    if (name === 'resize') {
      const height = Number(detail.height);
      if (Number.isFinite(height)) this.frame.style.height = `${Math.max(this.minHeight, Math.min(height, this.maxHeight()))}px`;
      return;
    }
    const dispatch = this.eventOf(name, detail);
    if (!dispatch) return;
    this.dispatched(dispatch.name, this.dispatchEvent(new CustomEvent(dispatch.name, { detail: dispatch.detail, cancelable: true })));
  }
}

/** Adds `api` to window.SigningService, also named window.SignService (legacy); form.js and builder.js share it. */
export function publishGlobals(api: Record<string, unknown>): void {
  const globals = window as unknown as Record<string, unknown>;
  globals.SigningService = { ...(globals.SigningService as object | undefined), ...api };
  globals.SignService = globals.SigningService;
}
