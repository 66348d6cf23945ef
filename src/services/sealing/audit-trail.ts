// The audit trail page's content for a submission: its signers and how they were verified, and every
// event of its trail (decisions.md › Signed output).
import type { Payment, Submitter, SubmissionEvent, SubmissionEventAction, SubmitterStatus } from '../../db/schema/index';
import { languageLine, type AuditEntry, type AuditPayment, type AuditSigner, type AuditTrail } from '../pdf/audit-page';
import { formatAmount } from '../payments/payment-field';
import type { SubmissionScope } from '../submissions/submission-scope';
import { decodeBase64 } from '../../shared/image-header';
import { DEFAULT_LOCALE, matchLocale, type Locale } from '../../shared/i18n/locales';
import type { MessageKey, MessageValues, Translate } from '../../shared/i18n/translator';
import { CATALOGS, translatorFor } from '../../lib/i18n/catalogs';

/** How a signer's identity was established (`submitters.verification_method`), in the page's language. */
const VERIFICATION: Record<string, MessageKey> = {
  email_2fa: 'audit.verification_method.email_2fa',
  sms_2fa: 'audit.verification_method.sms_2fa',
  whatsapp_2fa: 'audit.verification_method.whatsapp_2fa',
  link: 'audit.verification_method.link',
  api: 'audit.verification_method.api',
};

/** A signer's state, in the page's language. */
const SIGNER_STATUS: Record<SubmitterStatus, MessageKey> = {
  waiting: 'audit.signer_status.waiting',
  sent: 'audit.signer_status.sent',
  opened: 'audit.signer_status.opened',
  completed: 'audit.signer_status.completed',
  declined: 'audit.signer_status.declined',
  expired: 'audit.signer_status.expired',
};

const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;

function signatureImage(scope: SubmissionScope, submitter: Submitter): AuditSigner['signature'] {
  for (const field of scope.template.fields) {
    if (field.type !== 'signature' || field.submitter_uuid !== submitter.roleUuid) continue;
    const value = submitter.values[field.uuid];
    const image = typeof value === 'string' ? IMAGE_DATA_URL.exec(value) : null;
    if (!image) continue;
    let bytes: Uint8Array = new Uint8Array(0);
    try {
      bytes = decodeBase64(image[2]);
    } catch {
      // Not base64: the audit page shows its placeholder (appendAuditTrail).
    }
    return { format: image[1] as 'png' | 'jpeg', bytes };
  }
  return undefined;
}

const CHANNEL: Record<string, string> = { sms: 'SMS', whatsapp: 'WhatsApp' };

/**
 * Each action's name on the audit page, in the page's language (issue 31 › 1, 3). Typed by the closed
 * set the trail's writers use, so a new action cannot reach the page without one.
 */
export const EVENT_NAMES: Record<SubmissionEventAction, MessageKey> = {
  created: 'audit.event.created',
  sent: 'audit.event.sent',
  resent: 'audit.event.resent',
  reminded: 'audit.event.reminded',
  message_accepted: 'audit.event.message_accepted',
  message_delivered: 'audit.event.message_delivered',
  message_failed: 'audit.event.message_failed',
  link_clicked: 'audit.event.link_clicked',
  opened: 'audit.event.opened',
  started: 'audit.event.started',
  verification_code_sent: 'audit.event.verification_code_sent',
  email_verified: 'audit.event.email_verified',
  phone_verified: 'audit.event.phone_verified',
  disclosure_accepted: 'audit.event.disclosure_accepted',
  delegated: 'audit.event.delegated',
  witness_invited: 'audit.event.witness_invited',
  declined: 'audit.event.declined',
  completed: 'audit.event.completed',
  submission_completed: 'audit.event.submission_completed',
  expired: 'audit.event.expired',
  archived: 'audit.event.archived',
  legal_hold_set: 'audit.event.legal_hold_set',
  legal_hold_released: 'audit.event.legal_hold_released',
  signer_certificate_issued: 'audit.event.signer_certificate_issued',
  value_not_drawn: 'audit.event.value_not_drawn',
  erased: 'audit.event.erased',
};

/** The action's name in the page's language; one written before this list existed keeps its English words. */
function eventName(action: string, t: Translate): string {
  const key = (EVENT_NAMES as Record<string, MessageKey | undefined>)[action];
  return key ? t(key) : action.replace(/_/g, ' ');
}

/**
 * What the phone entries add (issue 31 › 7): which channel, and for a message the transport took, what
 * it was and the provider's id for it.
 */
function phoneDetail(event: SubmissionEvent, t: Translate): string | undefined {
  const channel = CHANNEL[String(event.data?.channel)];
  if (!channel) return undefined;
  if (event.action === 'message_accepted') {
    const values = { channel, kind: String(event.data.kind), transport: String(event.data.transport) };
    return event.data.provider_id
      ? t('audit.detail.message_accepted', { ...values, providerId: String(event.data.provider_id) })
      : t('audit.detail.message_accepted_no_id', values);
  }
  const provider = event.data.provider_id ? ` (${String(event.data.provider_id)})` : '';
  if (event.action === 'message_delivered') return t('audit.detail.message_delivered', { channel, provider });
  if (event.action === 'message_failed') {
    return t('audit.detail.message_failed', {
      channel,
      status: String(event.data.status),
      code: event.data.error_code ? String(event.data.error_code) : 'none',
      provider,
    });
  }
  if (event.action === 'link_clicked') return t('audit.detail.link_clicked', { channel });
  return t('audit.detail.by_channel', { channel });
}

/** The language a disclosure was shown in, as the trail recorded it (none before issue 31: English). */
function shownLanguage(event: SubmissionEvent): Locale | null {
  return event.action === 'disclosure_accepted' ? (matchLocale(String(event.data.language ?? '')) ?? 'en') : null;
}

/** The language each signer read the page in: the one their accepted disclosure was shown in. */
export function signerLanguages(events: readonly SubmissionEvent[]): Map<number, Locale> {
  const languages = new Map<number, Locale>();
  for (const event of events) {
    const language = shownLanguage(event);
    if (language && event.submitterId !== null) languages.set(event.submitterId, language);
  }
  return languages;
}

/** Names in a list as the page's language lists them ("a, b, c"), each kept as written. */
function nameList(names: unknown[], locale: Locale): string {
  return new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(names.map(String));
}

/** A placeholder's reason as the catalog's sentence, when the sealing recorded one (src/services/pdf/stamp.ts). */
function undrawnReason(event: SubmissionEvent, t: Translate): string | null {
  const why = event.data?.why as { key?: unknown; values?: unknown } | undefined;
  if (!why || typeof why.key !== 'string' || !why.key.startsWith('audit.undrawn.') || !(why.key in CATALOGS[DEFAULT_LOCALE])) return null;
  return t(why.key as MessageKey, (why.values ?? {}) as MessageValues);
}

/**
 * An event's line: its name, who, and what it adds, in the page's language. Hashes, versions, addresses,
 * user agents and values are kept as recorded; a reason a person wrote is kept as written.
 */
function describeEvent(event: SubmissionEvent, submitters: readonly Submitter[], t: Translate, locale: Locale): AuditEntry {
  const submitter = submitters.find((s) => s.id === event.submitterId);
  const reason = typeof event.data?.reason === 'string' ? event.data.reason : undefined;
  // Written by the sealing job (seal-submission.ts) for a value drawn as a placeholder.
  const undrawn = event.action === 'value_not_drawn';
  const language = shownLanguage(event);
  // The signer's consent to electronic records (issue 18 › 5): which text, by its hash, in which language and from which browser.
  const consent = language
    ? t('audit.detail.disclosure_accepted', {
        version: String(event.data.version),
        sha256: String(event.data.sha256),
        language: languageLine(language),
        userAgent: event.userAgent ?? '—',
      })
    : undefined;
  // An any-one-of signer (issue 33 › 2): who signed and the people they were chosen from.
  const chosen =
    event.action === 'completed' && Array.isArray(event.data?.chosen_from)
      ? t('audit.detail.chosen_signer', {
          signedBy: String(event.data.signed_by),
          chosenFrom: nameList(event.data.chosen_from as unknown[], locale),
        })
      : undefined;
  const detail =
    consent ??
    phoneDetail(event, t) ??
    chosen ??
    (undrawn
      ? t('audit.detail.value_not_drawn', {
          field: String(event.data.field),
          document: String(event.data.document),
          page: String(event.data.page),
          reason: undrawnReason(event, t) ?? String(reason),
        })
      : reason);
  return {
    at: event.createdAt,
    event: eventName(event.action, t),
    actor: submitter ? submitter.email || submitter.name || submitter.role : t(undrawn ? 'audit.actor.sealing' : 'audit.actor.sender'),
    ip: event.ip,
    ...(detail ? { detail } : {}),
  };
}

/** "25.00 EUR · pi_…" — what a paid payment field shows at its areas on the sealed document. */
export function sealedPaymentText(payment: Pick<Payment, 'amount' | 'currency' | 'reference'>): string {
  return `Paid ${formatAmount(payment.amount, payment.currency)} · ${payment.reference ?? ''}`;
}

function auditPayments(scope: SubmissionScope, payments: readonly Payment[]): AuditPayment[] {
  return payments
    .filter((p) => p.status === 'paid' && p.reference)
    .map((p) => {
      const submitter = scope.submitters.find((s) => s.id === p.submitterId);
      const field = scope.template.fields.find((f) => f.uuid === p.fieldUuid);
      return {
        field: [field?.name ?? p.fieldUuid, p.description].filter(Boolean).join(' — '),
        payer: submitter ? submitter.email || submitter.name || submitter.role : '—',
        amount: formatAmount(p.amount, p.currency),
        reference: p.reference!,
        paidAt: p.paidAt,
      };
    });
}

export function auditTrailFor(
  scope: SubmissionScope,
  events: readonly SubmissionEvent[],
  documentName: string,
  serviceName: string,
  payments: readonly Payment[] = [],
): Omit<AuditTrail, 'originalSha256'> {
  const { submission, submitters, template } = scope;
  const languages = signerLanguages(events);
  // The page speaks the language the (first) signer read: one signer's page and the trail agree.
  const locale = submitters.map((s) => languages.get(s.id)).find(Boolean) ?? undefined;
  const t = translatorFor(locale ?? DEFAULT_LOCALE);
  return {
    serviceName,
    documentName,
    templateName: template.name,
    submissionRef: `${submission.id} (${submission.slug})`,
    completedAt: submission.completedAt,
    signers: submitters.map((s) => ({
      name: s.name ?? '',
      email: s.email ?? '',
      role: s.role,
      status: SIGNER_STATUS[s.status] ? t(SIGNER_STATUS[s.status]) : s.status,
      ip: s.completedIp,
      userAgent: s.completedUserAgent,
      verification: t((s.verificationMethod && VERIFICATION[s.verificationMethod]) || 'audit.verification_method.link'),
      language: languages.get(s.id) ?? null,
      sentAt: s.sentAt,
      openedAt: s.openedAt,
      completedAt: s.completedAt,
      signature: signatureImage(scope, s),
    })),
    payments: auditPayments(scope, payments),
    events: events.map((e) => describeEvent(e, submitters, t, locale ?? DEFAULT_LOCALE)),
    locale,
  };
}
