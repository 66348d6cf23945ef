// The frame every signing page shares: branded header, the page's data for the browser script, styles.
import type { Child } from 'hono/jsx';
import type { PageBranding } from './branding';
import { SIGNING_CSS } from './styles';
import type { EmbedData } from '../shared/embed-data';

export type { EmbedData };

/** Per-page extras: the frame's embedding data, the page language and validated theme CSS. */
export type PageFrame = { embed?: EmbedData; language?: string | null; themeCss?: string };

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
  const css = `:root{--primary:${b.primaryColor};--header:${b.headerColor}}${frame.themeCss ?? ''}`;
  return (
    <html lang={frame.language ?? 'en'}>
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
        </header>
        <main>{props.children}</main>
        {b.showBranding ? <footer class="powered">Powered by {b.serviceName}</footer> : null}
        {props.data === undefined ? null : (
          <script type="application/json" id="signing-data" dangerouslySetInnerHTML={{ __html: safeJson(props.data) }} />
        )}
        {frame.embed ? (
          <script type="application/json" id="embed-data" dangerouslySetInnerHTML={{ __html: safeJson(frame.embed) }} />
        ) : null}
        {/* The script has nothing to do on a page without data or embedding (a message page), so it is not loaded there. */}
        {props.data === undefined && !frame.embed ? null : <script type="module" src="/vendor/signing/signing-page.js"></script>}
      </body>
    </html>
  );
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
