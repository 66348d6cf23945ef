// DocuSeal's <docuseal-form> over our signing form (issue 32 › 3; docs/embedding.md › DocuSeal's
// components): what `@docuseal/react`'s DocusealForm renders after loading https://<host>/js/form.js.
// It is <signing-form> with DocuSeal's attribute names and events: `data-src` (a signing link) or
// `data-token` (a signing form embed token), the options both share (`data-values`,
// `data-readonly-fields`, `data-language`, `data-completed-redirect-url`) and `data-background-color`;
// every other DocuSeal attribute is ignored. It dispatches `init` once its frame has loaded, then `load`
// (once per form), `completed` and `declined` with the submitter as `detail` (src/browser/docuseal-events.ts).
import { docusealFormEvent, type ElementEvent } from '../../browser/docuseal-events';
import { publishGlobals } from '../../browser/frame-host';
import { SigningFormElement } from './signing-form-element';

export class DocusealFormElement extends SigningFormElement {
  private loaded = false;
  private initialized = false;

  protected async frameUrl(): Promise<URL | null> {
    const { src, token } = this.dataset;
    if (!src && !token) return this.fail('data-src is missing: give the signer’s signing link (/s/…) or data-token.');
    if (src) {
      // DocuSeal's template links (/d/<slug>) open a new submission; here a form is always one signer's.
      let path = '';
      try {
        path = new URL(src, window.location.href).pathname;
      } catch {
        // super.frameUrl() names the problem
      }
      if (path && !path.startsWith('/s/'))
        return this.fail('data-src must be a signer’s signing link (/s/…): template links are not supported.');
    }
    return super.frameUrl();
  }

  /** Our shared options, and DocuSeal's background colour as the page's (a #rrggbb value; others are dropped). */
  protected options(): Record<string, string> {
    const out = super.options();
    const background = this.dataset.backgroundColor?.trim();
    if (background) out.background_color = background;
    return out;
  }

  /**
   * `init` once the frame has loaded or first speaks, whichever comes first: never before the page's own
   * events, and late enough for listeners a framework adds after mounting the element (React's effects
   * run after the element is connected, and an element already defined frames at once).
   */
  protected framed(frame: HTMLIFrameElement): void {
    this.loaded = false;
    this.initialized = false;
    frame.addEventListener('load', () => this.init(), { once: true });
  }

  private init(): void {
    if (this.initialized) return;
    this.initialized = true;
    this.dispatchEvent(new CustomEvent('init', { detail: {} }));
  }

  /** DocuSeal's element loads once: the completed page the frame moves on to says `load` again, which is dropped. */
  protected eventOf(name: string, data: Record<string, unknown>): ElementEvent | null {
    this.init();
    if (name === 'load' && this.loaded) return null;
    if (name === 'load') this.loaded = true;
    return docusealFormEvent(name, data);
  }
}

if (!customElements.get('docuseal-form')) customElements.define('docuseal-form', DocusealFormElement);
publishGlobals({ DocusealFormElement });
