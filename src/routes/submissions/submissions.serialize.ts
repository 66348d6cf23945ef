// Submission and submitter rows as the API shows them (spec › Submission, Submitter).
import type { Submitter, TemplateField } from '../../db/schema/index';
import { linkBaseOf, signingUrl } from '../../services/submissions/links';
import { submissionDocuments, type SubmissionScope } from '../../services/submissions/submission-scope';

/** Stored values are keyed by field uuid; the API shows field names (spec › Submitter.values). */
function valuesByName(values: Record<string, unknown>, fields: TemplateField[]): Record<string, unknown> {
  const byUuid = new Map(fields.map((f) => [f.uuid, f.name]));
  return Object.fromEntries(Object.entries(values).map(([uuid, value]) => [byUuid.get(uuid) ?? uuid, value]));
}

export function serializeSubmitter(s: Submitter, linkBase: string, fields: TemplateField[]) {
  const url = signingUrl(linkBase, s.slug);
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
    values: valuesByName(s.values, fields),
    metadata: s.metadata,
    send_email: s.sendEmail,
    send_sms: s.sendSms,
    sent_at: s.sentAt,
    opened_at: s.openedAt,
    completed_at: s.completedAt,
    declined_at: s.declinedAt,
    decline_reason: s.declineReason,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
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
    submitters: scope.submitters.map((s) => serializeSubmitter(s, linkBaseOf(scope), template.fields)),
    documents: submissionDocuments(apiBase, m, template.documents),
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    sent_at: m.sentAt,
    completed_at: m.completedAt,
    expired_at: m.expiredAt,
    archived_at: m.archivedAt,
  };
}
