// The embed script (/embed/v1/form.js, legacy /js/form.js): defines <signing-form data-src=… data-token=…>,
// which frames a signing page with the host's options and re-dispatches the page's browser messages as
// DOM events on the element (decisions.md › Embedding (issue 15): embedded signing form).
// The framing is the browser kit's (src/browser/frame-host.ts). Globals: window.SigningService, and the
// legacy window.SignService.
import { bearerAuth, createApiClient } from '../../browser/api';
import { currentScriptOrigin, FrameHostElement, publishGlobals, tokenSubject } from '../../browser/frame-host';

/** CSS custom properties on the element (or inherited) that theme the form → the page's query parameter. */
const THEME_VARIABLES: Record<string, string> = {
  '--signing-primary-color': 'primary_color',
  '--signing-header-color': 'header_color',
  '--signing-background-color': 'background_color',
  '--signing-text-color': 'text_color',
  '--signing-border-radius': 'border_radius',
};
/** Where this script came from: the service, whose API the token path asks. Read while the script runs. */
const scriptOrigin = currentScriptOrigin();

type EmbedSubmission = {
  submission?: { submitters?: { id?: number; embed_src?: string }[] };
  options?: { submitter_id?: number | null; permissions?: string[] };
};

export class SigningFormElement extends FrameHostElement {
  static observedAttributes = ['data-src', 'data-token'];
  protected readonly defaultTitle = 'Signing form';
  protected readonly events = new Set(['load', 'completed', 'declined', 'expired']);
  protected readonly minHeight = 200;
  protected readonly maxHeightFloor = 480;

  protected async frameUrl(): Promise<URL | null> {
    const src = this.dataset.src || (this.dataset.token ? await this.srcFromToken(this.dataset.token) : null);
    if (!src) return null;
    let url: URL;
    try {
      url = new URL(src, window.location.href);
    } catch {
      return this.fail(`data-src is not a URL: ${src}`);
    }
    for (const [name, value] of Object.entries(this.options())) url.searchParams.set(name, value);
    return url;
  }

  /**
   * With only a token: the form of the one signer the token was minted for (GET /api/embed/submission/{id}
   * shows that signer's embed_src and nobody else's). A finished signer's form is framed too: its page
   * posts `completed`/`declined`, so the host learns it at once.
   */
  private async srcFromToken(token: string): Promise<string | null> {
    // The JWT's `sub` when it names a submission (`submission:<id>`).
    const id = tokenSubject(token, /^submission:(\d+)$/);
    if (!id) return this.fail('data-token is not a signing form token.');
    const asked = await createApiClient(scriptOrigin, bearerAuth(token)).call('GET', `/api/embed/submission/${id}`);
    if (asked.status !== 0 && !asked.ok) return this.fail(`The signing form could not be loaded (${asked.status}).`);
    const body = asked.ok ? (asked.json as EmbedSubmission | null) : null;
    if (!body) return this.fail('The signing form could not be loaded.');
    if (!body.options?.permissions?.includes('sign'))
      return this.fail('This embed token only views the submission; mint one with the sign permission to open a form.');
    const signer = body.submission?.submitters?.find((s) => s.id === body.options?.submitter_id);
    return signer?.embed_src ?? this.fail('This embed token opens no signer’s form; mint one naming a signer (submitter_id).');
  }

  /** The data attributes and theme variables, as the signing page's query parameters. */
  protected options(): Record<string, string> {
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

  /** The host page moves on after completion unless a listener called preventDefault(). */
  protected dispatched(name: string, proceed: boolean): void {
    const redirect = this.dataset.completedRedirectUrl;
    if (name === 'completed' && proceed && redirect && /^https?:\/\//i.test(redirect)) window.location.assign(redirect);
  }
}

if (!customElements.get('signing-form')) customElements.define('signing-form', SigningFormElement);
publishGlobals({ SigningFormElement, version: 1 });
