// The frame every console page shares (settings, sign-in, MFA, OAuth consent): server-rendered HTML, a
// strict CSP, one small script (src/console/client/main.ts) that sends `form[data-api]` to the JSON API
// with the session's CSRF token. No SPA framework: every page is readable and navigable without it.
import type { Child } from 'hono/jsx';
import { raw } from 'hono/html';
import type { Account, User } from '../db/schema/index';

/** Who is signed in, for the navigation and the CSRF token the page's script sends. */
export type ConsoleViewer = { user: Pick<User, 'name' | 'email' | 'role'>; account: Pick<Account, 'name'>; csrfToken: string };

/** The console's sections; `key` marks the current one in the navigation. */
export const CONSOLE_NAV = [
  { key: 'templates', href: '/templates', label: 'Templates' },
  { key: 'submissions', href: '/submissions', label: 'Submissions' },
  { key: 'account', href: '/settings/account', label: 'Account' },
  { key: 'users', href: '/settings/users', label: 'Users' },
  { key: 'tokens', href: '/settings/tokens', label: 'API tokens' },
  { key: 'webhooks', href: '/settings/webhooks', label: 'Webhooks' },
  { key: 'brands', href: '/settings/brands', label: 'Brands' },
  { key: 'domains', href: '/settings/domains', label: 'Domains' },
  { key: 'security', href: '/settings/mfa', label: 'Two-factor' },
  { key: 'apps', href: '/settings/apps', label: 'Apps' },
] as const;

export type ConsoleSection = (typeof CONSOLE_NAV)[number]['key'];

export const CONSOLE_CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;background:#f3f4f6}
a{color:#1d4ed8}.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:9}
header.top{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between;padding:10px 16px;background:#1e293b;color:#fff}
header.top a{color:#fff}header.top form{margin:0}
nav.sections ul{display:flex;flex-wrap:wrap;gap:4px 16px;list-style:none;margin:0;padding:8px 16px;background:#fff;border-bottom:1px solid #d1d5db}
nav.sections a[aria-current=page]{font-weight:700;text-decoration:none;color:#111}
main{max-width:960px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:8px;padding:20px;margin:12px 0;box-shadow:0 1px 3px rgba(0,0,0,.1)}
.narrow{max-width:420px;margin:40px auto}
button,.button{background:#1d4ed8;color:#fff;border:0;border-radius:6px;padding:8px 14px;font-size:16px;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#e5e7eb;color:#111}button.danger{background:#b91c1c}
input,select,textarea{font:inherit;padding:8px;border:1px solid #6b7280;border-radius:6px;width:100%}
input[type=checkbox],input[type=radio]{width:auto}
label{display:block;font-weight:600;margin:10px 0 4px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e7eb;vertical-align:top}
.error{color:#b91c1c}.notice{color:#166534}.muted{color:#4b5563;font-size:14px}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin-top:12px}
code,.secret{font-family:ui-monospace,monospace;word-break:break-all}
`;

/** `script`: one more bundled script a page needs (the template builder); `wide` lets main use the whole width. */
export function ConsoleLayout(props: {
  title: string;
  viewer?: ConsoleViewer;
  section?: ConsoleSection;
  script?: string;
  wide?: boolean;
  children: Child;
}) {
  const viewer = props.viewer;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        {viewer ? <meta name="csrf-token" content={viewer.csrfToken} /> : null}
        <title>{props.title}</title>
        {/* Our own constant, not user text: as text, its quotes would be escaped and break the font rule. */}
        <style>{raw(CONSOLE_CSS)}</style>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <strong>{viewer ? viewer.account.name : 'Console'}</strong>
          {viewer ? (
            <form method="post" action="/logout">
              <input type="hidden" name="csrf_token" value={viewer.csrfToken} />
              <span class="muted" style="color:#e5e7eb">
                {viewer.user.email} ({viewer.user.role}){' '}
              </span>
              <button type="submit" class="secondary">
                Sign out
              </button>
            </form>
          ) : null}
        </header>
        {viewer ? (
          <nav class="sections" aria-label="Console">
            <ul>
              {CONSOLE_NAV.map((item) => (
                <li>
                  <a href={item.href} aria-current={item.key === props.section ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <main id="main" style={props.wide ? 'max-width:none' : undefined}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <script type="module" src="/vendor/console/console.js"></script>
        {props.script ? <script type="module" src={props.script}></script> : null}
      </body>
    </html>
  );
}
