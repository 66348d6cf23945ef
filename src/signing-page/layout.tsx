// The frame every signing page shares: branded header, the page's data for the browser script, styles.
import type { Child } from 'hono/jsx';
import type { PageBranding } from './branding';
import { SIGNING_CSS } from './styles';

/** The page's Content-Security-Policy: scripts only from this origin; pdf.js runs its worker from here too. */
export const SIGNING_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function Layout(props: { branding: PageBranding; data?: unknown; children: Child }) {
  const b = props.branding;
  const css = `:root{--primary:${b.primaryColor};--header:${b.headerColor}}`;
  return (
    <html lang="en">
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
        {props.data === undefined ? null : <script type="application/json" id="signing-data" dangerouslySetInnerHTML={{ __html: safeJson(props.data) }} />}
        <script type="module" src="/vendor/signing/signing-page.js"></script>
      </body>
    </html>
  );
}

/** JSON that cannot close the script element it sits in. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
