// The audit trail page's content for a submission: its signers and how they were verified, and every
// event of its trail (decisions.md › Signed output).
import type { Payment, Submitter, SubmissionEvent } from '../../db/schema/index';
import type { AuditEntry, AuditPayment, AuditSigner, AuditTrail } from '../pdf/audit-page';
import { formatAmount } from '../payments/payment-field';
import type { SubmissionScope } from '../submissions/submission-scope';
import { decodeBase64 } from '../../shared/image-header';
import { englishName, matchLocale, type Locale } from '../../shared/i18n/locales';

const VERIFICATION: Record<string, string> = {
  email_2fa: 'Email code (6 digits)',
  sms_2fa: 'Phone code by SMS (6 digits)',
  whatsapp_2fa: 'Phone code by WhatsApp (6 digits)',
  link: 'Personal signing link',
  api: 'Completed through the API',
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
 * What the phone entries add (issue 31 › 7): which channel, and for a message the transport took, what
 * it was and the provider's id for it.
 */
function phoneDetail(event: SubmissionEvent): string | undefined {
  const channel = CHANNEL[String(event.data?.channel)];
  if (!channel) return undefined;
  if (event.action === 'message_accepted') {
    const what = event.data.kind === 'verification_code' ? 'verification code' : String(event.data.kind);
    return `${channel} ${what} accepted by ${String(event.data.transport)}${event.data.provider_id ? ` (${String(event.data.provider_id)})` : ''}`;
  }
  const provider = event.data.provider_id ? ` (${String(event.data.provider_id)})` : '';
  if (event.action === 'message_delivered') return `${channel} message delivered, as its provider reported${provider}`;
  if (event.action === 'message_failed') {
    const code = event.data.error_code ? `, error ${String(event.data.error_code)}` : '';
    return `${channel} message not delivered: ${String(event.data.status)}${code}, as its provider reported${provider}`;
  }
  if (event.action === 'link_clicked') return `Opened the signing link from the ${channel} message`;
  return `By ${channel}`;
}

/** The language a disclosure was shown in, as the trail recorded it (none before issue 31: English). */
function shownLanguage(event: SubmissionEvent): Locale | null {
  return event.action === 'disclosure_accepted' ? (matchLocale(String(event.data.language ?? '')) ?? 'en') : null;
}

function languageShown(event: SubmissionEvent): string {
  const language = shownLanguage(event);
  return language ? ` in ${englishName(language)} (${language})` : '';
}

/** The language each signer read the page in: the one their accepted disclosure was shown in. */
function signerLanguages(events: readonly SubmissionEvent[]): Map<number, Locale> {
  const languages = new Map<number, Locale>();
  for (const event of events) {
    const language = shownLanguage(event);
    if (language && event.submitterId !== null) languages.set(event.submitterId, language);
  }
  return languages;
}

function describeEvent(event: SubmissionEvent, submitters: readonly Submitter[]): AuditEntry {
  const submitter = submitters.find((s) => s.id === event.submitterId);
  const reason = typeof event.data?.reason === 'string' ? event.data.reason : undefined;
  // Written by the sealing job (seal-submission.ts) for a value drawn as a placeholder.
  const undrawn = event.action === 'value_not_drawn';
  // The signer's consent to electronic records (issue 18 › 5): which text, by its hash, and from which browser.
  const consent =
    event.action === 'disclosure_accepted'
      ? `Accepted the electronic records disclosure version ${String(event.data.version)} (SHA-256 ${String(event.data.sha256)})${languageShown(event)}; user agent ${event.userAgent ?? 'unknown'}`
      : undefined;
  // An any-one-of signer (issue 33 › 2): who signed and the people they were chosen from.
  const chosen =
    event.action === 'completed' && Array.isArray(event.data?.chosen_from)
      ? `Signed by ${String(event.data.signed_by)}, one of ${(event.data.chosen_from as unknown[]).map(String).join(', ')}`
      : undefined;
  const detail =
    consent ??
    phoneDetail(event) ??
    chosen ??
    (undrawn
      ? `Field "${String(event.data.field)}" in ${String(event.data.document)}, page ${String(event.data.page)}: ${reason}`
      : reason);
  return {
    at: event.createdAt,
    event: event.action.replace(/_/g, ' '),
    actor: submitter ? submitter.email || submitter.name || submitter.role : undrawn ? 'Sealing' : 'Sender',
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
      status: s.status,
      ip: s.completedIp,
      userAgent: s.completedUserAgent,
      verification: (s.verificationMethod && VERIFICATION[s.verificationMethod]) || 'Personal signing link',
      language: languages.get(s.id) ?? null,
      sentAt: s.sentAt,
      openedAt: s.openedAt,
      completedAt: s.completedAt,
      signature: signatureImage(scope, s),
    })),
    payments: auditPayments(scope, payments),
    events: events.map((e) => describeEvent(e, submitters)),
    // The page speaks the language the (first) signer read: one signer's page and the trail agree.
    locale: submitters.map((s) => languages.get(s.id)).find(Boolean) ?? undefined,
  };
}
