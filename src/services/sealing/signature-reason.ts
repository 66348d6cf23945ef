// The reason written inside a signer's own PDF signature (/Reason, ISO 32000-1 §12.8.1, table 252), in the
// language the signer signed in (issue 31 › 1; docs/decisions.md › Refusals before the signer is known).
// The account's seal keeps its English reason: it is the service's statement, not the signer's.
import type { Account, SubmissionEvent, Submitter } from '../../db/schema/index';
import { translatorFor } from '../../lib/i18n/catalogs';
import type { Locale } from '../../shared/i18n/locales';
import { messageLocale } from '../submissions/notifications';
import type { SubmissionScope } from '../submissions/submission-scope';
import { signerLanguages } from './audit-trail';

/** "Signed as Buyer of submission Xk3j… (advanced electronic signature)", in `locale`. */
export function signerSignatureReason(locale: Locale, role: string, submissionSlug: string, level: 'aes' | 'qes'): string {
  return translatorFor(locale)('signature.reason', { role, submission: submissionSlug, level });
}

/**
 * The language each signer signed in: the one their accepted disclosure was shown in, as the trail
 * recorded it (the audit page's), else the language their messages are written in (a signer completed
 * through the API saw no page).
 */
export function signingLanguages(
  account: Account,
  scope: SubmissionScope,
  events: readonly SubmissionEvent[],
): (submitter: Submitter) => Locale {
  const shown = signerLanguages(events);
  return (submitter) =>
    shown.get(submitter.id) ?? messageLocale({ account, template: scope.template, submission: scope.submission }, submitter);
}
