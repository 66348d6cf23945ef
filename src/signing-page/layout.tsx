// The frame every signing page shares: branded header, the page's data for the browser script, styles.
import type { Child } from 'hono/jsx';
import type { PageBranding } from './branding';
import { SIGNING_CSS } from './styles';
import { brandPalette, type BrandPalette } from '../lib/design-tokens';
import type { EmbedData } from '../shared/embed-data';
import { DEFAULT_LOCALE, directionOf, type Locale } from '../shared/i18n/locales';
import type { Translate } from '../shared/i18n/translator';
import { translatorFor } from '../lib/i18n/catalogs';
import { LanguageSwitch } from './language-switch';

export type { EmbedData };

/**
 * Per-page extras: the frame's embedding data, the language the page is in (src/signing-page/language.ts
 * chooses it), whether the signer may switch it here, validated theme CSS and the script's URL.
 */
export type PageFrame = {
  embed?: EmbedData;
  locale?: Locale;
  switchable?: boolean;
  themeCss?: string;
  /** The page script's versioned URL, cached for good (src/lib/asset-versions.ts); SIGNING_SCRIPT otherwise. */
  script?: string;
};

/** The signing page's browser script (scripts/vendor-assets.mjs bundles src/signing-page/client/main.ts there). */
export const SIGNING_SCRIPT = '/vendor/signing/signing-page.js';

/** The translator of the page's language. */
export function pageTranslator(frame: PageFrame | undefined): Translate {
  return translatorFor(frame?.locale ?? DEFAULT_LOCALE);
}

/**
 * The page's Content-Security-Policy: scripts only from this origin; pdf.js runs its worker from here too.
 * `frameAncestors` is the account's allowed embedding origins, or 'none' (src/services/embed/embed-origins.ts).
 */
export function signingCsp(frameAncestors: string): string {
  return [...SIGNING_CSP_BASE, `frame-ancestors ${frameAncestors}`].join('; ');
}

const SIGNING_CSP_BASE = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
];

export function Layout(props: { branding: PageBranding; data?: unknown; frame?: PageFrame; children: Child }) {
  const b = props.branding;
  const frame = props.frame ?? {};
  const css = `${paletteCss(brandPalette(b.primaryColor, b.headerColor))}${frame.themeCss ?? ''}`;
  const locale = frame.locale ?? DEFAULT_LOCALE;
  const t = translatorFor(locale);
  // Right-to-left languages mirror the layout; the page images keep their own direction (styles.ts).
  return (
    <html lang={locale} dir={directionOf(locale)}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{b.title}</title>
        {b.faviconUrl ? <link rel="icon" href={b.faviconUrl} /> : null}
        <style>{css + SIGNING_CSS}</style>
      </head>
      <body class={`nav-${b.navStyle}`}>
        <header class="brand">
          {b.logoUrl ? <img src={b.logoUrl} alt={b.companyName} class="logo" /> : <strong>{b.companyName}</strong>}
          <span class="title">{b.displayTitle}</span>
          {frame.switchable ? <LanguageSwitch locale={locale} label={t('page.language_label')} change={t('page.language_change')} /> : null}
        </header>
        <main>{props.children}</main>
        {b.showBranding ? <footer class="powered">{t('page.powered_by', { service: b.serviceName })}</footer> : null}
        {props.data === undefined ? null : (
          <script type="application/json" id="signing-data" dangerouslySetInnerHTML={{ __html: safeJson(props.data) }} />
        )}
        {frame.embed ? (
          <script type="application/json" id="embed-data" dangerouslySetInnerHTML={{ __html: safeJson(frame.embed) }} />
        ) : null}
        {/* The script has nothing to do on a page without data or embedding (a message page), so it is not loaded there. */}
        {props.data === undefined && !frame.embed ? null : <script type="module" src={frame.script ?? SIGNING_SCRIPT}></script>}
      </body>
    </html>
  );
}

/** The branding's colours as the stylesheet's custom properties (styles.ts), contrast already ensured. */
function paletteCss(p: BrandPalette): string {
  return `:root{--primary:${p.primary};--on-primary:${p.onPrimary};--primary-hover:${p.primaryHover};--accent:${p.accent};--header:${p.header};--on-header:${p.onHeader}}`;
}

/** JSON that cannot close the script element it sits in. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
