// A submission with everything its transitions read: its submitters in order and the template as it was
// when the submission was created. Also the mapping from these rows to webhook payload shapes.
import type { Db } from '../../db/client';
import { brandingsOf } from '../../db/queries/brands';
import { findScopeRows, readScopeRows } from '../../db/queries/submission-scopes';
import type { SubmissionRef, SubmissionSources } from '../../db/queries/submissions';
import type {
  BrandingValues,
  Submission,
  Submitter,
  SubmitterMember,
  TemplateDocument,
  TemplateField,
  TemplateRole,
} from '../../db/schema/index';
import type { MintedLink } from '../document-links/links';
import type { LinkDomain } from './links';
import type {
  PayloadDocument,
  PayloadSubmission,
  PayloadSubmissionRef,
  PayloadSubmitter,
  PayloadTemplateRef,
} from '../webhooks/payload-shapes';

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
  /** The people of its any-one-of submitters (issue 33 › 2; any-of.ts); unset or empty when it has none. */
  members?: readonly SubmitterMember[];
  /**
   * The branding of the brand the submission uses (its own `preferences.brand_id`, else its template's),
   * read with the scope so that pages and emails show the brand as it is now (spec › Branding). Null
   * when none, or when the brand was deleted.
   */
  brand?: BrandingValues | null;
  /**
   * Public links to the signed documents, minted once the submission completes when the account has
   * them on, so every payload built from this scope carries the same `url`s (docs/document-links.md).
   */
  documentLinks?: ReadonlyMap<number, MintedLink>;
  /**
   * The custom domain the submission's links use now (`withLinkDomain`, src/services/submissions/links.ts):
   * links point there (`linkBaseOf`) and emails resolve its branding below the brand. Unset or null: the
   * service base stored with the submission.
   */
  linkDomain?: LinkDomain | null;
};

type Sources = SubmissionSources;

/**
 * The submission `id` names (a scalar subquery: `submissionIdOf`, `submissionIdOfSubmitter`,
 * `submissionIdOfSlug`) with its scope, found and read in one D1 batch (one read more when it names a
 * brand); undefined when it names none. What an API read, a signing page or an action starts from.
 */
export async function findScope(db: Db, id: SubmissionRef): Promise<SubmissionScope | undefined> {
  const found = await findScopeRows(db, id);
  if (!found) return undefined;
  const { submission, rows } = found;
  return scopeOf(submission, rows.submitters, rows.members, rows, await readBrandings(db, [submission], rows));
}

function snapshotOf(submission: Submission, sources: Sources) {
  return sources.versions.find((v) => v.templateId === submission.templateId && v.version === submission.templateVersion)?.snapshot;
}

function brandIdOf(submission: Submission, sources: Sources): number | null {
  const id = submission.preferences.brand_id ?? snapshotOf(submission, sources)?.preferences?.brand_id;
  return typeof id === 'number' ? id : null;
}

/** The brandings the submissions use, by `account:brand id`: one read per account, none when no submission names a brand. */
async function readBrandings(db: Db, list: Submission[], sources: Sources): Promise<Map<string, BrandingValues>> {
  const idsByAccount = new Map<number, number[]>();
  for (const submission of list) {
    const id = brandIdOf(submission, sources);
    if (id !== null) idsByAccount.set(submission.accountId, [...(idsByAccount.get(submission.accountId) ?? []), id]);
  }
  const maps = await Promise.all(
    [...idsByAccount].map(async ([accountId, ids]) =>
      [...(await brandingsOf(db, accountId, ids))].map(([id, branding]) => [`${accountId}:${id}`, branding] as const),
    ),
  );
  return new Map(maps.flat());
}

function scopeOf(
  submission: Submission,
  submitters: Submitter[],
  members: SubmitterMember[],
  sources: Sources,
  brandings: Map<string, BrandingValues>,
): SubmissionScope {
  const snapshot = snapshotOf(submission, sources);
  const brandId = brandIdOf(submission, sources);
  return {
    submission,
    submitters,
    members,
    brand: brandId === null ? null : (brandings.get(`${submission.accountId}:${brandId}`) ?? null),
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
  const rows = await readScopeRows(db, [submission]);
  return scopeOf(submission, submitters ?? rows.submitters, rows.members, rows, await readBrandings(db, [submission], rows));
}

/** Scopes of many submissions (a list page) in one D1 batch, whatever their number (and one more read when they name brands). */
export async function loadScopes(db: Db, list: Submission[]): Promise<SubmissionScope[]> {
  if (list.length === 0) return [];
  const rows = await readScopeRows(db, list);
  const brandings = await readBrandings(db, list, rows);
  return list.map((submission) =>
    scopeOf(
      submission,
      rows.submitters.filter((s) => s.submissionId === submission.id),
      rows.members.filter((m) => m.submissionId === submission.id),
      rows,
      brandings,
    ),
  );
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
    language: s.language,
    metadata: s.metadata,
    opened_at: s.openedAt,
    completed_at: s.completedAt,
    declined_at: s.declinedAt,
  };
}

export function submissionRef(
  s: Pick<Submission, 'id' | 'slug' | 'status'>,
  template: Pick<SubmissionTemplate, 'publicId'>,
): PayloadSubmissionRef {
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
export function submissionDocuments(
  apiBase: string,
  submission: Pick<Submission, 'id' | 'status' | 'completedAt'>,
  documents: TemplateDocument[],
  links?: ReadonlyMap<number, MintedLink>,
): PayloadDocument[] {
  if (submission.status !== 'completed' && !submission.completedAt) return [];
  return documents.map((d) => {
    const link = links?.get(d.id);
    return {
      id: d.id,
      document_type: 'signed_pdf',
      filename: d.filename.replace(/\.pdf$/i, '') + '.pdf',
      download_url: `${apiBase}/api/submissions/${submission.id}/documents/${d.id}`,
      ...(link ? { url: link.url, url_expires_at: link.expires_at } : {}),
    };
  });
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
    documents: submissionDocuments(apiBase, submission, template.documents, scope.documentLinks),
  };
}
