// The Content-Security-Policy of console pages (the console, sign-in, MFA, OAuth consent, apps): scripts
// and styles from our origin only, no framing. Set by the console-session middleware and the pages outside it.
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
