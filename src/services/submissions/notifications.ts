// The invitations, reminders, expiry notices and completion copies a submission sends, as message rows
// for the messages outbox (src/services/mail). Which channels a submitter gets follows their
// `send_email` / `send_sms` / `send_whatsapp` flags and the submission's `send_email` switch. Links in text
// messages say which channel they came by (`?via=`), so the page can record the click.
import type { Account, BrandingValues, NewMessage, Submission, Submitter } from '../../db/schema/index';
import { resolveBranding } from '../branding/resolve-branding';
import { emailMessage, smsMessage } from '../mail/outbox';
import type { MessageContext, MessageKind } from '../mail/compose';
import type { Branding } from '../mail/render';
import { signingUrl } from './links';
import { linkVia, type PhoneChannel } from '../../shared/link-channel';
import { signerLocale } from '../signing/signer-language';
import type { Locale } from '../../shared/i18n/locales';

/**
 * The language a signer's messages are written in: the signing page's choice without what only a
 * browser tells (its Accept-Language, the embed option, the page's switch).
 */
export function messageLocale(
  source: Pick<MessageSource, 'account' | 'template'> & { submission: Pick<Submission, 'preferences'> },
  submitter: { language?: string | null },
): Locale {
  return signerLocale({
    submitter: submitter.language,
    submission: source.submission.preferences.language,
    template: source.template.preferences.language,
    account: source.account.locale,
  });
}

export type MessageSource = {
  account: Pick<Account, 'id' | 'name' | 'locale'>;
  serviceName: string;
  submission: Pick<Submission, 'id' | 'expireAt' | 'preferences' | 'sendEmail'>;
  /** The origin its signing links use now (links.ts › linkBaseOf). */
  linkBase: string;
  template: { name: string; preferences: Record<string, unknown> };
  /** Invitation overrides from the create body's `message` (DocuSeal's subject/body). */
  invitation?: { subject?: string | null; body?: string | null };
  /** The branding of the submission's brand (SubmissionScope.brand). */
  brand?: BrandingValues | null;
  /** The branding of the custom domain the submission's links use (issue 17 › custom domains). */
  domainBranding?: Record<string, unknown> | null;
};

/**
 * Branding resolved when the email is composed, as the signing page resolves it (spec › Branding: edits
 * apply to signers who have not finished): template keys, then the brand, then the custom domain.
 */
export function messageBranding(
  source: Pick<MessageSource, 'account' | 'serviceName' | 'template' | 'brand' | 'domainBranding'>,
): Branding {
  const resolved = resolveBranding({
    template: source.template.preferences,
    templateName: source.template.name,
    brand: source.brand,
    domainBranding: source.domainBranding,
    account: source.account,
    serviceName: source.serviceName,
  });
  return {
    companyName: resolved.companyName,
    title: resolved.displayTitle,
    logoUrl: resolved.logoUrl,
    primaryColor: resolved.primaryColor,
    showPoweredBy: resolved.showBranding,
    serviceName: source.serviceName,
  };
}

function contextFor(
  source: MessageSource,
  submitter: Pick<Submitter, 'name' | 'email' | 'slug'> & { nameFromSigner?: boolean; language?: string | null },
  kind: MessageKind,
): MessageContext {
  const prefs = source.submission.preferences;
  const custom =
    kind === 'reminder'
      ? { subject: prefs.reminder_subject ?? null, body: prefs.reminder_body ?? null }
      : kind === 'invitation'
        ? source.invitation
        : undefined;
  return {
    branding: messageBranding(source),
    // A name another signer typed is never put in front of its recipient: the greeting falls back to the address.
    submitter: {
      name: submitter.nameFromSigner ? null : submitter.name,
      email: submitter.email ?? '',
      link: signingUrl(source.linkBase, submitter.slug),
    },
    template: { name: source.template.name },
    submission: { expireAt: source.submission.expireAt, downloadUrl: signingUrl(source.linkBase, submitter.slug) },
    custom,
    locale: messageLocale(source, submitter),
  };
}

export type Channels = { email: boolean; sms: boolean; whatsapp: boolean };

/** Which channels reach this submitter for an invitation or reminder. */
export function channelsFor(
  submission: Pick<Submission, 'sendEmail'>,
  submitter: Pick<Submitter, 'email' | 'phone' | 'sendEmail' | 'sendSms' | 'sendWhatsapp'>,
): Channels {
  return {
    email: submission.sendEmail && submitter.sendEmail && !!submitter.email,
    sms: submitter.sendSms && !!submitter.phone,
    whatsapp: submitter.sendWhatsapp && !!submitter.phone,
  };
}

/** Whether any channel reaches the submitter (an invitation then moves them to `sent`). */
export function reachable(channels: Channels): boolean {
  return channels.email || channels.sms || channels.whatsapp;
}

/** The email channel alone (expiry notices and completion copies go by email only). */
export function emailOnly(channels: Channels): Channels {
  return { email: channels.email, sms: false, whatsapp: false };
}

function viaPhone(context: MessageContext, channel: PhoneChannel): MessageContext {
  return { ...context, submitter: { ...context.submitter, link: linkVia(context.submitter.link, channel) } };
}

/** The message rows of one kind to one submitter over the given channels (without ids of new rows). */
export function messagesFor(
  kind: MessageKind,
  source: MessageSource,
  submitter: Pick<Submitter, 'name' | 'email' | 'slug' | 'phone'> & { id?: number; nameFromSigner?: boolean; language?: string | null },
  channels: Channels,
): NewMessage[] {
  const context = contextFor(source, submitter, kind);
  const refs = { accountId: source.account.id, submissionId: source.submission.id ?? null, submitterId: submitter.id ?? null };
  const rows: NewMessage[] = [];
  if (channels.email && submitter.email) rows.push(emailMessage(kind, context, refs));
  for (const channel of ['sms', 'whatsapp'] as const) {
    if (channels[channel] && submitter.phone) rows.push(smsMessage(kind, viaPhone(context, channel), submitter.phone, refs, channel));
  }
  return rows;
}
