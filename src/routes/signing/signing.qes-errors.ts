// How a qes signer's submit and callback name the way back and show a stop (issue 18 › 3): shared by the
// submit route and the callback and retry pages.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import { QesProviderError } from '../../services/qes/provider-error';
import { QesSigningStopped } from '../../services/sealing/qes-signing-stopped';
import type { Signing } from '../../services/signing/signing-session';
import { translatorFor } from '../../lib/i18n/catalogs';
import { DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales';

type C = Context<AppEnv>;

/**
 * Where the provider sends a qes signer back; the provider must accept it as a redirect URI. On a custom
 * signing domain the signer returns to it: their email-code cookie is that host's.
 */
export function qesRedirectUri(c: C, signing: Signing): string {
  const origin = c.var.customDomain ? new URL(c.req.url).origin : baseUrl(c.req.raw, c.env.APP_URL);
  return `${origin}/s/${signing.submitter.slug}/qes/callback`;
}

/** Why qes signing stopped, as the signer reads it in their language; the admin's sentence goes to the log only. */
export function qesStopped(c: C, error: unknown, locale: Locale = DEFAULT_LOCALE): string | null {
  if (!(error instanceof QesProviderError || error instanceof QesSigningStopped)) return null;
  console.warn(`[${c.var.requestId}] qes signing stopped: ${error.message}`);
  return translatorFor(locale)(error.signerMessage);
}

/** A provider failure during a JSON submit: 502 with the signer's sentence (the form stays to submit again). */
export function qesApiError(c: C, error: unknown, locale?: Locale): unknown {
  const text = qesStopped(c, error, locale);
  return text === null ? error : new ApiError(502, text);
}
