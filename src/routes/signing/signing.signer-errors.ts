// Refusals on the signing routes in the signer's language (issue 31 › 1): a service's ApiError that carries
// catalog sentences (`signerRefusal`, src/lib/errors.ts) is answered with them, formatted in the language
// of the signer behind the slug; the tenant API answers the same refusal in English.
import type { ErrorHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { translatorFor } from '../../lib/i18n/catalogs';
import type { Locale } from '../../shared/i18n/locales';

/** The error as the signer reads it: its catalog sentences in `locale`, or the error itself. */
export function inSignerLanguage(error: Error, locale: Locale | undefined): Error {
  if (!(error instanceof ApiError) || !error.signer || !locale) return error;
  const t = translatorFor(locale);
  const sentences = error.signer.map((s) => t(s.key, s.values));
  return new ApiError(error.status, sentences.length === 1 ? sentences[0] : sentences, error.extra, error.headers);
}

/** The signing router's error handler: words the refusal for the signer, then lets the app's onError answer. */
export const signerErrors: ErrorHandler<AppEnv> = (error, c) => {
  throw inSignerLanguage(error, c.var.signerLocale);
};
