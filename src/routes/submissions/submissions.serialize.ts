// Submission and submitter rows as the API shows them (spec › Submission, Submitter).
import type { Submitter, TemplateField } from '../../db/schema/index';
import { linkBaseOf, signingUrl } from '../../services/submissions/links';
import { membersOf } from '../../services/submissions/any-of';
import { submissionDocuments, type SubmissionScope } from '../../services/submissions/submission-scope';

/** Stored values are keyed by field uuid; the API shows field names (spec › Submitter.values). */
function valuesByName(values: Record<string, unknown>, fields: TemplateField[]): Record<string, unknown> {
  const byUuid = new Map(fields.map((f) => [f.uuid, f.name]));
  return Object.fromEntries(Object.entries(values).map(([uuid, value]) => [byUuid.get(uuid) ?? uuid, value]));
}

/**
 * A submitter as the API shows it, with `order` when it signs in a group and `emails` when any one of
 * several people signs (issue 33; decisions.md › Order groups and any-of signers): each with their own link.
 */
export function serializeSubmitter(s: Submitter, scope: Pick<SubmissionScope, 'submission' | 'template' | 'members' | 'linkDomain'>) {
  const linkBase = linkBaseOf(scope);
  const url = signingUrl(linkBase, s.slug);
  const members = membersOf(scope.members, s);
  return {
    id: s.id,
    uuid: s.uuid,
    submission_id: s.submissionId,
    slug: s.slug,
    email: s.email,
    name: s.name,
    phone: s.phone,
    role: s.role,
    external_id: s.externalId,
    language: s.language,
    status: s.status,
    signing_url: url,
    embed_src: url,
    values: valuesByName(s.values, scope.template.fields),
    metadata: s.metadata,
    send_email: s.sendEmail,
    send_sms: s.sendSms,
    send_whatsapp: s.sendWhatsapp,
    require_phone_2fa: s.requirePhone2fa,
    sent_at: s.sentAt,
    opened_at: s.openedAt,
    completed_at: s.completedAt,
    declined_at: s.declinedAt,
    decline_reason: s.declineReason,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    ...(s.order === null ? {} : { order: s.order }),
    ...(members.length
      ? {
          emails: members.map((m) => ({
            email: m.email,
            name: m.name,
            phone: m.phone,
            signing_url: signingUrl(linkBase, m.slug),
            completed_at: m.completedAt,
          })),
        }
      : {}),
  };
}

export function serializeSubmission(scope: SubmissionScope, apiBase: string) {
  const { submission: m, template } = scope;
  return {
    id: m.id,
    slug: m.slug,
    status: m.status,
    source: m.source,
    template_id: template.publicId,
    template: { id: template.publicId, name: template.name },
    submitters_order: m.submittersOrder as 'sequential' | 'parallel',
    send_email: m.sendEmail,
    auto_sign: m.autoSign,
    expire_at: m.expireAt,
    metadata: m.metadata,
    preferences: m.preferences as Record<string, unknown>,
    signature_level: m.signatureLevel,
    reminder_schedule: m.reminderSchedule,
    legal_hold: m.legalHoldAt !== null,
    legal_hold_at: m.legalHoldAt,
    retained_until: m.legalHoldAt === null ? m.purgeAt : null,
    submitters: scope.submitters.map((s) => serializeSubmitter(s, scope)),
    documents: submissionDocuments(apiBase, m, template.documents),
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    sent_at: m.sentAt,
    completed_at: m.completedAt,
    expired_at: m.expiredAt,
    archived_at: m.archivedAt,
  };
}
