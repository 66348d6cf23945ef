// The branding keys' form fields (spec › Branding) and a live preview of the signing page header, shared
// by the brand and custom-domain pages. Field names are `branding.<key>`: the console script nests them
// into the JSON body's `branding` object. The preview starts as the server resolves it
// (resolveBranding) and src/console/client/branding-preview.ts redraws it as the fields change, with the
// same darken rule.
import type { MiddlewareHandler } from 'hono';
import type { BrandingValues } from '../../db/schema/index';
import type { AppEnv } from '../../app-env';
import { resolveBranding } from '../../services/branding/resolve-branding';
import { CONSOLE_CSP } from '../../lib/console-csp';

/** The console's CSP, with images from any https origin: the preview shows the tenant's logo where it is hosted. */
export const BRANDING_PAGE_CSP = CONSOLE_CSP.replace("img-src 'self' data:", "img-src 'self' data: https:");

/** After consoleSession() (which sets the console CSP): pages with a branding preview load logos. */
export function brandingPageCsp(): MiddlewareHandler<AppEnv> {
  return async function brandingPageCsp(c, next) {
    await next();
    if (c.res.headers.has('Content-Security-Policy')) c.res.headers.set('Content-Security-Policy', BRANDING_PAGE_CSP);
  };
}

type Values = Readonly<Record<string, unknown>> | null | undefined;

const TEXT_KEYS = [
  {
    key: 'display_title',
    label: 'Display title',
    hint: 'The header and email title; the template name when empty.',
    type: 'text',
    max: 255,
  },
  {
    key: 'company_name',
    label: 'Company name',
    hint: 'The wordmark and the logo’s alt text; the account name when empty.',
    type: 'text',
    max: 255,
  },
  { key: 'logo_url', label: 'Logo URL', hint: 'An http(s) address of an image.', type: 'url', max: 2048 },
  { key: 'favicon_url', label: 'Favicon URL', hint: 'An http(s) address; the logo when empty.', type: 'url', max: 2048 },
] as const;

const COLOR_KEYS = [
  { key: 'primary_button_color', label: 'Primary button colour', hint: 'Buttons and accents, #rrggbb.' },
  {
    key: 'header_color',
    label: 'Header colour',
    hint: '#rrggbb, dark enough for white text (luminance at most 50%); the button colour darkened 20% when empty.',
  },
] as const;

function stringOf(values: Values, key: string): string {
  const value = values?.[key];
  return typeof value === 'string' ? value : '';
}

/** One branding key per control; empty text is sent as null, which the API drops (create) or removes (update). */
export function BrandingFields(props: { prefix: string; branding?: Values; previewId: string }) {
  const { prefix, branding } = props;
  return (
    <fieldset data-branding-fields={props.previewId}>
      <legend>Branding</legend>
      {TEXT_KEYS.map((k) => (
        <>
          <label for={`${prefix}-${k.key}`}>{k.label}</label>
          <input
            id={`${prefix}-${k.key}`}
            name={`branding.${k.key}`}
            type={k.type}
            maxlength={k.max}
            value={stringOf(branding, k.key)}
            data-type="optional"
            data-branding-key={k.key}
            aria-describedby={`${prefix}-${k.key}-hint`}
          />
          <p id={`${prefix}-${k.key}-hint`} class="muted">
            {k.hint}
          </p>
        </>
      ))}
      {COLOR_KEYS.map((k) => (
        <>
          <label for={`${prefix}-${k.key}`}>{k.label}</label>
          <div style="display:flex;gap:8px;align-items:center">
            <input
              id={`${prefix}-${k.key}-picker`}
              type="color"
              value={stringOf(branding, k.key) || '#000000'}
              data-skip
              data-color-for={`${prefix}-${k.key}`}
              aria-label={`${k.label} picker`}
              style="width:48px;height:40px;padding:2px"
            />
            <input
              id={`${prefix}-${k.key}`}
              name={`branding.${k.key}`}
              type="text"
              maxlength={7}
              pattern="#[0-9a-fA-F]{6}"
              placeholder="#rrggbb"
              value={stringOf(branding, k.key)}
              data-type="optional"
              data-branding-key={k.key}
              aria-describedby={`${prefix}-${k.key}-hint`}
            />
          </div>
          <p id={`${prefix}-${k.key}-hint`} class="muted">
            {k.hint}
          </p>
        </>
      ))}
      <p>
        <input
          type="checkbox"
          id={`${prefix}-show_branding`}
          name="branding.show_branding"
          checked={branding?.show_branding !== false}
          data-branding-key="show_branding"
          aria-describedby={`${prefix}-show_branding-hint`}
        />{' '}
        <label for={`${prefix}-show_branding`} style="display:inline">
          Show the “Powered by” line
        </label>
      </p>
      <p id={`${prefix}-show_branding-hint`} class="muted">
        Unticked hides it on the signing page and “Sent with” in emails.
      </p>
    </fieldset>
  );
}

/**
 * The signing page header as a signer would see it with these keys alone (a template's own keys and
 * the levels below come on top at render time). `data-fallback-*` are what empty fields fall back to.
 */
export function BrandingPreview(props: { id: string; branding?: Values; accountName: string; serviceName: string }) {
  const sampleTitle = 'Your document';
  const b = resolveBranding({
    template: {},
    templateName: sampleTitle,
    brand: props.branding,
    account: { name: props.accountName },
    serviceName: props.serviceName,
  });
  return (
    <section aria-labelledby={`${props.id}-heading`} class="preview">
      <h3 id={`${props.id}-heading`}>Preview of the signing page header</h3>
      <div
        id={props.id}
        data-branding-preview
        data-fallback-company={props.accountName.trim() || props.serviceName}
        data-fallback-title={sampleTitle}
        style="border:1px solid #d1d5db;border-radius:8px;overflow:hidden"
      >
        <div
          data-preview-header
          style={`background:${b.headerColor};color:#fff;padding:12px 16px;display:flex;gap:12px;align-items:center`}
        >
          <img
            data-preview-logo
            src={b.logoUrl ?? undefined}
            alt={b.companyName}
            hidden={!b.logoUrl}
            style="max-height:40px;max-width:160px"
          />
          <strong data-preview-company hidden={Boolean(b.logoUrl)}>
            {b.companyName}
          </strong>
          <span data-preview-title>{b.displayTitle}</span>
        </div>
        <div style="padding:12px 16px;background:#fff">
          <span
            data-preview-button
            style={`display:inline-block;background:${b.primaryColor};color:#fff;border-radius:6px;padding:8px 14px`}
          >
            Sign and complete
          </span>
          <p data-preview-powered class="muted" hidden={!b.showBranding}>
            Powered by {props.serviceName}
          </p>
        </div>
      </div>
    </section>
  );
}

/** The keys as a read-only list, for users who cannot change them. */
export function BrandingSummary(props: { branding: BrandingValues | Record<string, unknown> | null }) {
  const entries = Object.entries(props.branding ?? {});
  if (entries.length === 0) return <p>No branding keys set: the levels below apply.</p>;
  return (
    <dl>
      {entries.map(([key, value]) => (
        <>
          <dt>
            <code>{key}</code>
          </dt>
          <dd style="word-break:break-all">{String(value)}</dd>
        </>
      ))}
    </dl>
  );
}
