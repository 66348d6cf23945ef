// A submission with everything its transitions read: its submitters in order and the template as it was
// when the submission was created. Also the mapping from these rows to webhook payload shapes.
import type { Db } from '../../db/client';
import { listSubmittersOf, readSubmissionSources } from '../../db/queries/submissions';
import type { Submission, Submitter, TemplateDocument, TemplateField, TemplateRole } from '../../db/schema/index';
import type { PayloadDocument, PayloadSubmission, PayloadSubmissionRef, PayloadSubmitter, PayloadTemplateRef } from '../webhooks/payloads';

export type SubmissionTemplate = {
  id: number;
  publicId: string;
  name: string;
  roles: TemplateRole[];
  fields: TemplateField[];
  preferences: Record<string, unknown>;
  documents: TemplateDocument[];
};

export type SubmissionScope = {
  submission: Submission;
  submitters: Submitter[];
  template: SubmissionTemplate;
};

type Sources = Awaited<ReturnType<typeof readSubmissionSources>>;

function scopeOf(submission: Submission, submitters: Submitter[], sources: Sources): SubmissionScope {
  const snapshot = sources.versions.find((v) => v.templateId === submission.templateId && v.version === submission.templateVersion)?.snapshot;
  return {
    submission,
    submitters,
    template: {
      id: submission.templateId,
      publicId: sources.publicIds.get(submission.templateId) ?? String(submission.templateId),
      name: snapshot?.name ?? '',
      roles: snapshot?.submitters ?? [],
      fields: snapshot?.schema ?? [],
      preferences: snapshot?.preferences ?? {},
      documents: submission.documentIds.flatMap((id) => sources.documents.get(id) ?? []),
    },
  };
}

export async function loadScope(db: Db, submission: Submission, submitters?: Submitter[]): Promise<SubmissionScope> {
  const [rows, sources] = await Promise.all([
    submitters ? Promise.resolve(submitters) : listSubmittersOf(db, [submission.id]),
    readSubmissionSources(db, [submission]),
  ]);
  return scopeOf(submission, rows, sources);
}

/** Scopes of many submissions (a list page) in four reads, whatever their number. */
export async function loadScopes(db: Db, list: Submission[]): Promise<SubmissionScope[]> {
  const [submitters, sources] = await Promise.all([listSubmittersOf(db, list.map((s) => s.id)), readSubmissionSources(db, list)]);
  return list.map((submission) => scopeOf(submission, submitters.filter((s) => s.submissionId === submission.id), sources));
}

/** The fields a submitter fills: those of their role. */
export function fieldsOf(template: Pick<SubmissionTemplate, 'fields'>, submitter: Pick<Submitter, 'roleUuid'>): TemplateField[] {
  return template.fields.filter((f) => f.submitter_uuid === submitter.roleUuid);
}

export function payloadSubmitter(s: Submitter): PayloadSubmitter {
  return {
    id: s.id,
    uuid: s.uuid,
    email: s.email ?? '',
    name: s.name ?? '',
    role: s.role,
    status: s.status,
    external_id: s.externalId,
    metadata: s.metadata,
    opened_at: s.openedAt,
    completed_at: s.completedAt,
    declined_at: s.declinedAt,
  };
}

export function submissionRef(s: Pick<Submission, 'id' | 'slug' | 'status'>, template: Pick<SubmissionTemplate, 'publicId'>): PayloadSubmissionRef {
  return { id: s.id, slug: s.slug, status: s.status, template_id: template.publicId };
}

export function templateRef(template: Pick<SubmissionTemplate, 'publicId' | 'name'>): PayloadTemplateRef {
  return { id: template.publicId, name: template.name };
}

/**
 * The signed documents of a submission: one per template document, addressed by the template document's
 * id, so the ids are known from creation on and a payload sent at completion links to the files the
 * sealing job is producing (docs/decisions.md › Submissions).
 */
export function submissionDocuments(apiBase: string, submission: Pick<Submission, 'id' | 'status' | 'completedAt'>, documents: TemplateDocument[]): PayloadDocument[] {
  if (submission.status !== 'completed' && !submission.completedAt) return [];
  return documents.map((d) => ({
    id: d.id,
    document_type: 'signed_pdf',
    filename: d.filename.replace(/\.pdf$/i, '') + '.pdf',
    download_url: `${apiBase}/api/submissions/${submission.id}/documents/${d.id}`,
  }));
}

export function payloadSubmission(apiBase: string, scope: SubmissionScope): PayloadSubmission {
  const { submission, submitters, template } = scope;
  return {
    id: submission.id,
    slug: submission.slug,
    status: submission.status,
    created_at: submission.createdAt,
    completed_at: submission.completedAt,
    template_id: template.publicId,
    metadata: submission.metadata,
    submitters: submitters.map(payloadSubmitter),
    documents: submissionDocuments(apiBase, submission, template.documents),
  };
}
