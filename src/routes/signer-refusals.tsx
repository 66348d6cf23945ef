// Refusals a signer or a public link's visitor meets on /s and /l, in their language (issue 31 › 1): a
// service's ApiError that carries catalog sentences (`signerRefusal`, src/lib/errors.ts) is answered with
// them, formatted in the signer's language once the slug has named the signer, and before that (a rate
// limit, a body cap, a malformed body, an unknown link) in the language the request asks for. A browser
// opening a page gets the message page; everything else the JSON `{error}`. The tenant API keeps English.
import type { Context, ErrorHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env';
import type { Account } from '../db/schema/index';
import { ApiError } from '../lib/errors';
import { translatorFor } from '../lib/i18n/catalogs';
import { signerLocale } from '../services/signing/signer-language';
import { serviceBranding } from '../signing-page/branding';
import { MessagePage } from '../signing-page/pages';
import { matchLocale, type Locale } from '../shared/i18n/locales';
import type { MessageKey } from '../shared/i18n/translator';

type C = Context<AppEnv>;

/** The cookie keeping the language a signer chose with the page's switch, for their link only. */
export const languageCookie = (slug: string) => `signing_language_${slug}`;

/** A browser navigating to a page (not the page's script, an image or pdf.js): it gets HTML. */
export function wantsHtml(c: C): boolean {
  return /\btext\/html\b/i.test(c.req.header('Accept') ?? '');
}

/** The signing slug of a path under /s, if any (read from the path: it runs before any lookup). */
function slugOfPath(path: string): string | null {
  const [, prefix, slug] = path.split('/');
  return prefix === 's' && slug ? slug : null;
}

/**
 * The language of a request whose signer is not known (yet): the page's language switch (`?lang=`, or the
 * choice it kept for this link), the embedding host's `language` option, the account's locale when known,
 * then the browser's Accept-Language; through the one negotiation (signer-language.ts).
 */
export function visitorLocale(c: C, account?: Pick<Account, 'locale'> | null): Locale {
  const slug = slugOfPath(c.req.path);
  return signerLocale({
    chosen: matchLocale(c.req.query('lang')) ?? (slug ? getCookie(c, languageCookie(slug)) : null),
    embed: c.req.query('language'),
    account: account?.locale,
    acceptLanguage: c.req.header('Accept-Language'),
  });
}

/** The error as the signer reads it: its catalog sentences in `locale`, or the error itself. */
export function inSignerLanguage(error: Error, locale: Locale | undefined): Error {
  if (!(error instanceof ApiError) || !error.signer || !locale) return error;
  const t = translatorFor(locale);
  const sentences = error.signer.map((s) => t(s.key, s.values));
  return new ApiError(error.status, sentences.length === 1 ? sentences[0] : sentences, error.extra, error.headers);
}

/** The page's heading for a refusal shown as a page, by its status. */
const HEADINGS: Partial<Record<number, MessageKey>> = { 404: 'not_found.title', 429: 'signer_error.rate_limited_title' };

/**
 * A refusal as a page, in `locale` with its direction, in the service's branding. It runs no script,
 * loads nothing and has nothing to click: only its inline style is allowed. `frameable`: any page may
 * frame it (a signer's refusal, met inside an embedding app before its account, and so its embedding
 * origins, is known: a framed signer sees the sentence instead of a blocked frame; with nothing to click
 * there is nothing to hijack); else nobody may.
 */
export function refusalPage(
  c: C,
  refusal: {
    status: ContentfulStatusCode;
    locale: Locale;
    heading: string;
    text: string;
    id: string;
    headers?: Record<string, string>;
    frameable?: boolean;
  },
): Response {
  const page = (
    <MessagePage
      branding={serviceBranding(c.env.SERVICE_NAME, refusal.heading)}
      id={refusal.id}
      heading={refusal.heading}
      text={refusal.text}
      frame={{ locale: refusal.locale }}
    />
  );
  return c.html(`<!doctype html>${page}`, refusal.status, {
    ...refusal.headers,
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors ${refusal.frameable ? '*' : "'none'"}`,
    ...(refusal.frameable ? {} : { 'X-Frame-Options': 'DENY' }),
    'Referrer-Policy': 'no-referrer',
  });
}

/**
 * The /s and /l routers' error handler: words a refusal that has signer sentences in the signer's language
 * (or the visitor's, before the signer is known), as a page for a browser's GET; the app's onError answers
 * everything else.
 */
export const signerErrors: ErrorHandler<AppEnv> = (error, c) => {
  if (!(error instanceof ApiError) || !error.signer) throw error;
  const locale = c.var.signerLocale ?? visitorLocale(c);
  const worded = inSignerLanguage(error, locale);
  if (c.req.method !== 'GET' || !wantsHtml(c)) throw worded;
  const t = translatorFor(locale);
  const heading = t(HEADINGS[error.status] ?? 'page.signing_title');
  return refusalPage(c, {
    status: error.status,
    locale,
    heading,
    text: worded.message,
    id: `refused-${error.status}`,
    headers: error.headers,
    frameable: true,
  });
};
