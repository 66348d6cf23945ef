// Creating templates: from uploaded files, as a clone, or as a merge of several. Files go to R2 first,
// then the rows and the template.created event in one D1 batch; if anything fails the files are deleted.
import {
  findTemplates,
  insertDocumentsStatements,
  insertTemplateStatement,
  insertVersionStatement,
  listCurrentDocuments,
  type NewTemplateDocument,
} from '../../db/queries/templates';
import type { Template, TemplateDocument, TemplateField, TemplateRole } from '../../db/schema/index';
import { notFound, unprocessable } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { copyStoredFiles, deleteStoredFiles, documentKey, ingestDocuments, UPLOAD_LIMITS, type Upload } from '../documents/ingest';
import { outboxInsert } from '../events/outbox';
import { copyDocxSources } from './docx-documents';
import { buildFields, buildRoles, storedAsInputs, type FieldInput, type LocatedField, type RoleInput } from './template-fields';
import { checkBrandPreference } from '../branding/brands';
import { assertLevelWithinAccount } from '../signature-levels/levels';
import { mergePreferences, type PreferencesInput } from './template-preferences';
import {
  assertTemplateAllowance,
  assertTemplateStorage,
  newTemplateIds,
  refusingPastTemplateLimit,
  snapshotOf,
  templateEventData,
  templateLimitGuard,
  templateStorageGuard,
  type TemplateContext,
} from './template-records';

export type CreateTemplateInput = {
  name?: string;
  external_id?: string | null;
  folder_name?: string;
  shared?: boolean;
  submitters?: RoleInput[];
  fields?: FieldInput[];
  preferences?: PreferencesInput;
  documents: (Upload & { fields?: FieldInput[] })[];
};

export type TemplateWithDocuments = { template: Template; documents: TemplateDocument[] };

type NewTemplateRecord = {
  name: string;
  externalId: string | null;
  folderName: string;
  source: 'api' | 'clone' | 'merge';
  shared: boolean;
  submitters: TemplateRole[];
  fields: TemplateField[];
  preferences: Record<string, unknown>;
  documents: NewTemplateDocument[];
};

/** Writes a template whose files are already in R2; deletes those files if the write fails. */
async function persistNewTemplate(ctx: TemplateContext, record: NewTemplateRecord, storedKeys: string[]): Promise<TemplateWithDocuments> {
  const { db, actor } = ctx;
  const { publicId, slug } = newTemplateIds();
  const at = nowIso();
  const values = {
    accountId: actor.accountId,
    publicId,
    slug,
    name: record.name,
    externalId: record.externalId,
    folderName: record.folderName,
    source: record.source,
    shared: record.shared,
    authorId: actor.userId,
    submitters: record.submitters,
    fields: record.fields,
    preferences: record.preferences,
    version: 1,
    archivedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const draft = { ...values, id: 0 } as Template;
  const documentInserts = insertDocumentsStatements(db, publicId, record.documents);
  const bytes = sumBytes(record.documents);
  try {
    const [, , [template], ...rest] = await refusingPastTemplateLimit(
      ctx,
      () =>
        db.batch([
          // Exact under concurrency: past the plan's template count or storage this aborts the whole batch.
          templateLimitGuard(ctx),
          templateStorageGuard(ctx, bytes),
          insertTemplateStatement(db, values),
          ...documentInserts,
          insertVersionStatement(db, publicId, {
            accountId: actor.accountId,
            version: 1,
            authorId: actor.userId,
            changes: ['created'],
            // Document row ids are not known before the batch; version 1 names documents by uuid.
            snapshot: snapshotOf(
              draft,
              record.documents.map((d) => ({ ...d, id: 0 })),
            ),
            createdAt: at,
          }),
          outboxInsert(db, {
            accountId: actor.accountId,
            event: 'template.created',
            data: templateEventData(draft, record.documents.length),
          }),
          ...(ctx.auditStatement ? [ctx.auditStatement(publicId)] : []),
        ]),
      { templates: true, bytes },
    );
    const documents = (rest.slice(0, documentInserts.length) as TemplateDocument[][]).flat();
    return { template, documents };
  } catch (error) {
    await deleteStoredFiles(ctx.bucket, storedKeys);
    throw error;
  }
}

function sumBytes(documents: { byteSize: number }[]): number {
  return documents.reduce((sum, d) => sum + d.byteSize, 0);
}

/** The plan checks before any file is stored: template count and storage for `addingBytes`. */
async function assertAllowances(ctx: TemplateContext, addingBytes: number): Promise<void> {
  await Promise.all([assertTemplateAllowance(ctx), assertTemplateStorage(ctx, addingBytes)]);
}

function documentRow(accountId: number, d: Omit<NewTemplateDocument, 'accountId' | 'position'>, position: number): NewTemplateDocument {
  return { ...d, accountId, position };
}

export async function createTemplate(ctx: TemplateContext, given: CreateTemplateInput): Promise<TemplateWithDocuments> {
  if (given.documents.length === 0) {
    throw unprocessable('documents must include at least one file; a template cannot be created from a field list alone.');
  }
  // Reading the PDFs loads pdf-lib on first use (decisions.md › Cold start).
  const { withDocumentFields } = await import('./document-fields');
  const input = { ...given, documents: await withDocumentFields(given.documents) };
  // Before any file is stored: another account's brand id is refused like an unknown one (spec › Create brand).
  await checkBrandPreference(ctx.db, ctx.actor.accountId, input.preferences);
  assertLevelWithinAccount(input.preferences, ctx.actor.signatureLevel);
  // The plan count (a D1 read) runs while the files are checked, stored and parsed; a plan refusal
  // wins over a document problem, as when they ran one after the other.
  const uploadBytes = input.documents.reduce((sum, d) => sum + d.bytes.byteLength, 0);
  const [allowance, ingested] = await Promise.allSettled([
    assertAllowances(ctx, uploadBytes),
    ingestDocuments(ctx.bucket, ctx.actor.accountId, input.documents),
  ]);
  if (allowance.status === 'rejected') {
    if (ingested.status === 'fulfilled') await deleteStoredFiles(ctx.bucket, ingested.value.stored);
    throw allowance.reason;
  }
  if (ingested.status === 'rejected') throw ingested.reason;
  const { documents: prepared, stored } = ingested.value;
  let record: NewTemplateRecord;
  try {
    const located: LocatedField[] = [
      ...(input.fields ?? []).map((f, i) => ({ label: `fields[${i}]`, input: f })),
      ...input.documents.flatMap((d, i) =>
        (d.fields ?? []).map((f, j) => ({ label: `documents[${i}].fields[${j}]`, input: f, document: prepared[i].uuid })),
      ),
    ];
    const roles = buildRoles(input.submitters, located);
    const fields = buildFields(located, roles, prepared);
    record = {
      name: input.name?.trim() || prepared[0].filename,
      externalId: input.external_id ?? null,
      folderName: input.folder_name?.trim() || 'Default',
      source: 'api',
      shared: input.shared ?? false,
      submitters: roles,
      fields,
      preferences: mergePreferences({}, input.preferences, { documentUuids: prepared.map((d) => d.uuid), fields }),
      documents: prepared.map((d, i) =>
        documentRow(
          ctx.actor.accountId,
          {
            uuid: d.uuid,
            filename: d.filename,
            contentType: d.contentType,
            byteSize: d.byteSize,
            sha256: d.sha256,
            pageCount: d.pageCount,
            pageDimensions: d.pageDimensions,
            certifiedForm: d.certifiedForm,
            r2Key: d.r2Key,
          },
          i,
        ),
      ),
    };
  } catch (error) {
    // A field or preference refused (422): the files stored for it go too.
    await deleteStoredFiles(ctx.bucket, stored);
    throw error;
  }
  return persistNewTemplate(ctx, record, stored);
}

/** Gives copied documents fresh uuids and points areas and preferences at them. */
function remapDocuments(fields: TemplateField[], preferences: Record<string, unknown>, map: Map<string, string>) {
  const mapped = (uuid: string) => map.get(uuid) ?? uuid;
  const newFields = fields.map((f) => ({ ...f, areas: f.areas.map((a) => ({ ...a, attachment_uuid: mapped(a.attachment_uuid) })) }));
  const newPreferences = { ...preferences };
  if (Array.isArray(newPreferences.carousel_review_documents)) {
    newPreferences.carousel_review_documents = (newPreferences.carousel_review_documents as string[]).map(mapped);
  }
  if (newPreferences.document_conditions && typeof newPreferences.document_conditions === 'object') {
    newPreferences.document_conditions = Object.fromEntries(
      Object.entries(newPreferences.document_conditions as Record<string, unknown>).map(([uuid, rule]) => [mapped(uuid), rule]),
    );
  }
  return { fields: newFields, preferences: newPreferences };
}

type CopyPlan = { rows: NewTemplateDocument[]; copies: { from: string; to: string }[]; uuidMap: Map<string, string> };

function planCopies(accountId: number, documents: TemplateDocument[], offset = 0): CopyPlan {
  const uuidMap = new Map<string, string>();
  const copies: { from: string; to: string }[] = [];
  const rows = documents.map((d, i) => {
    const uuid = crypto.randomUUID();
    const r2Key = documentKey(accountId);
    uuidMap.set(d.uuid, uuid);
    copies.push({ from: d.r2Key, to: r2Key });
    return documentRow(
      accountId,
      {
        uuid,
        filename: d.filename,
        contentType: d.contentType,
        byteSize: d.byteSize,
        sha256: d.sha256,
        pageCount: d.pageCount,
        pageDimensions: d.pageDimensions,
        certifiedForm: d.certifiedForm,
        r2Key,
      },
      offset + i,
    );
  });
  return { rows, copies, uuidMap };
}

/**
 * Copies documents' PDFs and, for DOCX documents, their source and variables (what per-submission
 * filling reads). Thumbnails and an HTML document's source are not copied: they are remade or unused.
 */
async function copyDocumentFiles(bucket: R2Bucket, copies: { from: string; to: string }[]): Promise<string[]> {
  const stored = await copyStoredFiles(bucket, copies);
  try {
    return [...stored, ...(await copyDocxSources(bucket, copies))];
  } catch (error) {
    await deleteStoredFiles(bucket, stored);
    throw error;
  }
}

export type CopyOptions = { name?: string; folder_name?: string; external_id?: string | null };

/** A new template with copies of the source's files; field and role uuids are kept, document uuids are new. */
export async function cloneTemplate(ctx: TemplateContext, source: Template, options: CopyOptions): Promise<TemplateWithDocuments> {
  const documents = await listCurrentDocuments(ctx.db, [source.id]);
  await assertAllowances(ctx, sumBytes(documents));
  const plan = planCopies(ctx.actor.accountId, documents);
  const { fields, preferences } = remapDocuments(source.fields, source.preferences, plan.uuidMap);
  const stored = await copyDocumentFiles(ctx.bucket, plan.copies);
  return persistNewTemplate(
    ctx,
    {
      name: options.name?.trim() || `${source.name} (Clone)`,
      externalId: options.external_id === undefined ? source.externalId : options.external_id,
      folderName: options.folder_name?.trim() || source.folderName,
      source: 'clone',
      shared: source.shared,
      submitters: source.submitters,
      fields,
      preferences,
      documents: plan.rows,
    },
    stored,
  );
}

/**
 * One template from several, documents in the order given. Roles with the same name (ignoring case)
 * become one role, keeping the first one's uuid; fields follow their role.
 */
export async function mergeTemplates(ctx: TemplateContext, refs: string[], options: CopyOptions): Promise<TemplateWithDocuments> {
  const found = await findTemplates(ctx.db, ctx.actor.accountId, refs);
  const sources = refs.map((ref) => {
    const template = found.find((t) => t.publicId === ref || String(t.id) === ref);
    if (!template) throw notFound(`Template ${ref}`);
    return template;
  });
  if (new Set(sources.map((t) => t.id)).size !== sources.length) throw unprocessable('template_ids must not name the same template twice.');
  const allDocuments = await listCurrentDocuments(
    ctx.db,
    sources.map((t) => t.id),
  );
  const ordered = sources.flatMap((t) => allDocuments.filter((d) => d.templateId === t.id));
  await assertAllowances(ctx, sumBytes(ordered));
  const pages = ordered.reduce((sum, d) => sum + d.pageCount, 0);
  if (ordered.length > UPLOAD_LIMITS.documentsPerTemplate) {
    throw unprocessable(
      `The merged template would have ${ordered.length} documents; a template can hold at most ${UPLOAD_LIMITS.documentsPerTemplate}.`,
    );
  }
  if (pages > UPLOAD_LIMITS.pagesPerTemplate) {
    throw unprocessable(`The merged template would have ${pages} pages; a template can have at most ${UPLOAD_LIMITS.pagesPerTemplate}.`);
  }
  const plan = planCopies(ctx.actor.accountId, ordered);

  const roles: TemplateRole[] = [];
  const fields: TemplateField[] = [];
  const usedFieldUuids = new Set<string>();
  let preferences: Record<string, unknown> = {};
  for (const source of sources) {
    const roleMap = new Map<string, string>();
    for (const role of source.submitters) {
      const same = roles.find((r) => r.name.trim().toLowerCase() === role.name.trim().toLowerCase());
      if (same) roleMap.set(role.uuid, same.uuid);
      else {
        const uuid = roles.some((r) => r.uuid === role.uuid) ? crypto.randomUUID() : role.uuid;
        roles.push({ name: role.name, uuid });
        roleMap.set(role.uuid, uuid);
      }
    }
    const remapped = remapDocuments(source.fields, source.preferences, plan.uuidMap);
    for (const field of remapped.fields) {
      const uuid = usedFieldUuids.has(field.uuid) ? crypto.randomUUID() : field.uuid;
      usedFieldUuids.add(uuid);
      fields.push({ ...field, uuid, submitter_uuid: roleMap.get(field.submitter_uuid) ?? field.submitter_uuid });
    }
    preferences = mergeDocumentPreferences(preferences, remapped.preferences);
  }
  // Formulas refer to fields by name; a merge can make a name ambiguous, which the checks report.
  const documentPages = plan.rows.map((d) => ({
    uuid: d.uuid,
    pageCount: d.pageCount,
    pageDimensions: d.pageDimensions,
    certifiedForm: d.certifiedForm,
  }));
  const checked = buildFields(storedAsInputs(fields), roles, documentPages);

  const stored = await copyDocumentFiles(ctx.bucket, plan.copies);
  return persistNewTemplate(
    ctx,
    {
      name:
        options.name?.trim() ||
        sources
          .map((t) => t.name)
          .join(' + ')
          .slice(0, 255),
      externalId: options.external_id ?? null,
      folderName: options.folder_name?.trim() || sources[0].folderName,
      source: 'merge',
      shared: false,
      submitters: roles,
      fields: checked,
      preferences,
      documents: plan.rows,
    },
    stored,
  );
}

/** The first template's settings win; per-document rules of every template are kept. */
function mergeDocumentPreferences(into: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...next, ...into };
  const carousel = [...((into.carousel_review_documents as string[]) ?? []), ...((next.carousel_review_documents as string[]) ?? [])];
  if (carousel.length) merged.carousel_review_documents = carousel;
  const conditions = { ...((next.document_conditions as object) ?? {}), ...((into.document_conditions as object) ?? {}) };
  if (Object.keys(conditions).length) merged.document_conditions = conditions;
  return merged;
}
