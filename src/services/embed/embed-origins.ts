// The account's allowed embedding origins (decisions.md › Embedding, `embed_origins`): which sites may frame
// the signing page, checked when the setting is saved and turned into the page's frame-ancestors.
import { unprocessable } from '../../lib/errors';

export const MAX_EMBED_ORIGINS = 20;

/** What `URL.origin` gives for an http(s) origin: nothing a CSP source list could be broken with. */
const ORIGIN_SHAPE = /^https?:\/\/[a-z0-9.\-[\]:]+$/;

/**
 * The origins as stored: each `scheme://host[:port]` exactly as browsers report `event.origin` (host
 * lower-cased and in punycode, default port dropped), duplicates removed, order kept. https only; http
 * too when `allowHttp` (development). Anything else — a path, a query, credentials, a wildcard — is a
 * 422 naming the entry, because a page's frame-ancestors and message target take origins and nothing more.
 */
export function normalizeEmbedOrigins(input: string[], { allowHttp }: { allowHttp: boolean }): string[] {
  if (input.length > MAX_EMBED_ORIGINS)
    throw unprocessable(`embed_origins may list at most ${MAX_EMBED_ORIGINS} origins; it lists ${input.length}.`);
  const problems: string[] = [];
  const origins: string[] = [];
  input.forEach((raw, i) => {
    const origin = originOf(raw.trim(), allowHttp);
    if (typeof origin === 'object') problems.push(`embed_origins[${i}] ${JSON.stringify(raw.slice(0, 100))} ${origin.problem}`);
    else if (!origins.includes(origin)) origins.push(origin);
  });
  if (problems.length > 0) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  return origins;
}

function originOf(value: string, allowHttp: boolean): string | { problem: string } {
  const example = 'such as https://app.example.com';
  const schemes = allowHttp ? 'an https or http' : 'an https';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `is not an origin; give ${schemes} origin ${example}.` };
  }
  if (url.protocol === 'http:' && !allowHttp) return { problem: `must use https (http origins are allowed only in development).` };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `must be ${schemes} origin ${example}.` };
  if (url.username || url.password) return { problem: 'must not contain a user name or password.' };
  if (url.hostname.includes('*')) return { problem: 'must name one host; wildcards are not accepted.' };
  // `https://a.example/` is the origin written with its root path; anything longer is a page, not an origin.
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || /[?#]$/.test(value) || /\/\/.*\/./.test(value)) {
    return { problem: `must be an origin only (scheme, host and port), ${example}, with no path, query or fragment.` };
  }
  if (!ORIGIN_SHAPE.test(url.origin)) return { problem: `must be ${schemes} origin ${example}.` };
  return url.origin;
}

/** The value of the signing page's frame-ancestors directive: the allowed origins, or 'none'. */
export function frameAncestors(origins: readonly string[]): string {
  const allowed = origins.filter((o) => ORIGIN_SHAPE.test(o));
  return allowed.length > 0 ? allowed.join(' ') : "'none'";
}
