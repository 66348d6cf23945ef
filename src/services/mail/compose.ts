// The messages the service sends about a submission, as email and SMS, in the tenant's branding.
import { fillTokens, layoutEmail, type Branding, type EmailContent, type TokenValues } from './render';
import { translatorFor } from '../../lib/i18n/catalogs';
import { DEFAULT_LOCALE, directionOf, type Locale } from '../../shared/i18n/locales';
import type { MessageKey, MessageValues } from '../../shared/i18n/translator';

export type MessageKind = 'invitation' | 'reminder' | 'expiry' | 'completion' | 'verification_code';

export type MessageContext = {
  branding: Branding;
  submitter: { name: string | null; email: string; link: string };
  template: { name: string };
  submission: { expireAt: string | null; downloadUrl?: string | null };
  /** Tenant overrides (submission preferences): subject and body with `{{tokens}}`. */
  custom?: { subject?: string | null; body?: string | null };
  /** verification_code only. */
  code?: string;
  /** The recipient's language (src/services/signing/signer-language.ts); English when not given. */
  locale?: Locale;
};

/** Each kind's texts in the catalogs (src/shared/i18n/catalogs): subject, body, button and SMS. */
const KEYS: Record<MessageKind, { subject: MessageKey; body: MessageKey; action?: MessageKey; sms: MessageKey }> = {
  invitation: {
    subject: 'email.invitation.subject',
    body: 'email.invitation.body',
    action: 'email.invitation.action',
    sms: 'email.invitation.sms',
  },
  reminder: { subject: 'email.reminder.subject', body: 'email.reminder.body', action: 'email.reminder.action', sms: 'email.reminder.sms' },
  expiry: { subject: 'email.expiry.subject', body: 'email.expiry.body', sms: 'email.expiry.sms' },
  completion: {
    subject: 'email.completion.subject',
    body: 'email.completion.body',
    action: 'email.completion.action',
    sms: 'email.completion.sms',
  },
  verification_code: {
    subject: 'email.verification_code.subject',
    body: 'email.verification_code.body',
    sms: 'email.verification_code.sms',
  },
};

/** How long an email code lives, as the messages say (src/services/signing/email-verification.ts). */
const CODE_MINUTES = 10;

/** The tenant's `{{tokens}}` (spec › Tokens), for their own subjects and bodies, which stay as they wrote them. */
function tokens(context: MessageContext): TokenValues {
  return {
    'submitter.name': context.submitter.name || context.submitter.email,
    'submitter.email': context.submitter.email,
    'submitter.link': context.submitter.link,
    'template.name': context.template.name,
    'submission.expire_at': context.submission.expireAt ?? '',
    'account.name': context.branding.companyName,
    code: context.code ?? '',
  };
}

/** The values our own messages are formatted with, in the recipient's language. */
function variables(context: MessageContext): MessageValues {
  return {
    name: context.submitter.name || context.submitter.email,
    link: context.submitter.link,
    template: context.template.name,
    account: context.branding.companyName,
    expireAt: context.submission.expireAt ? new Date(context.submission.expireAt) : new Date(),
    code: context.code ?? '',
    minutes: CODE_MINUTES,
  };
}

export function composeEmail(kind: MessageKind, context: MessageContext): EmailContent {
  const locale = context.locale ?? DEFAULT_LOCALE;
  const t = translatorFor(locale);
  const values = tokens(context);
  const own = variables(context);
  const keys = KEYS[kind];
  const subject = context.custom?.subject ? fillTokens(context.custom.subject, values) : t(keys.subject, own);
  const body = context.custom?.body ? fillTokens(context.custom.body, values) : t(keys.body, own);
  const url = kind === 'completion' ? (context.submission.downloadUrl ?? null) : context.submitter.link;
  return layoutEmail(
    context.branding,
    {
      subject,
      paragraphs: body.split(/\n{2,}/),
      action: keys.action && url ? { label: t(keys.action), url } : undefined,
    },
    {
      openLink: t('email.open_link'),
      sentWith: t('email.sent_with', { service: context.branding.serviceName }),
      locale,
      dir: directionOf(locale),
    },
  );
}

export function composeSms(kind: MessageKind, context: MessageContext): string {
  return translatorFor(context.locale ?? DEFAULT_LOCALE)(KEYS[kind].sms, variables(context));
}
