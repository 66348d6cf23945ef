// Changing templates: edits and document changes store a new version with their event in one batch;
// a concurrent change makes the batch fail as a whole (409). Permanent deletion also erases the files.
import type { Batch, BatchStatement } from '../../db/client';
import { templateHasSubmissions } from '../../db/queries/submissions';
import {
  deleteTemplateStatements,
  insertDocumentsStatements,
  insertVersionStatement,
  isVersionConflict,
  listAllDocumentKeys,
  listCurrentDocuments,
  removeDocumentsStatement,
  renameDocumentStatement,
  reorderDocumentStatement,
  updateTemplateStatement,
  type NewTemplateDocument,
} from '../../db/queries/templates';
import type { Template, TemplateDocument, TemplateField, TemplateRole } from '../../db/schema/index';
import { ApiError, unprocessable } from '../../lib/errors';
import type { EventName } from '../../lib/events';
import { nowIso } from '../../lib/time';
import { deleteDerivedFiles, deleteStoredFiles, ingestDocuments, type PreparedDocument, type Upload } from '../documents/ingest';
import { outboxInsert } from '../events/outbox';
import {
  buildFields,
  buildRoles,
  storedAsInputs,
  withRolesNamedBy,
  type FieldInput,
  type LocatedField,
  type RoleInput,
} from './template-fields';
import { checkBrandPreference } from '../branding/brands';
import { assertLevelWithinAccount } from '../signature-levels/levels';
import { mergePreferences, withoutDocuments, type PreferencesInput } from './template-preferences';
import {
  assertTemplateAllowance,
  assertTemplateStorage,
  refusingPastTemplateLimit,
  snapshotOf,
  templateEventData,
  templateLimitGuard,
  templateStorageGuard,
  type TemplateContext,
} from './template-records';
import type { TemplateWithDocuments } from './create-template';

export type UpdateTemplateInput = {
  name?: string;
  folder_name?: string;
  external_id?: string | null;
  shared?: boolean;
  submitters?: RoleInput[];
  /** DocuSeal's form: role names by position; renames, adds or drops roles at the end. */
  roles?: string[];
  fields?: FieldInput[];
  preferences?: PreferencesInput;
  archived?: boolean;
};

function conflict(): ApiError {
  return new ApiError(409, 'The template was changed by another request at the same time; fetch it again and retry.');
}

type Change = {
  changes: string[];
  values: Partial<Template>;
  event: EventName;
  /** Document rows to mark removed, rows to add, and positions to set, in that order. */
  removeDocumentIds?: number[];
  addDocuments?: NewTemplateDocument[];
  positions?: { id: number; position: number }[];
  renames?: { id: number; filename: string }[];
  documentsAfter: Pick<TemplateDocument, 'id' | 'uuid' | 'filename' | 'pageCount' | 'sha256'>[];
  /** An archived template becomes active again, so it counts against the plan's limit. */
  restores?: boolean;
};

/** Applies one change as a single batch: template row, document rows, version, outbox event. */
async function commit(ctx: TemplateContext, template: Template, change: Change): Promise<Template> {
  const { db, actor } = ctx;
  const at = nowIso();
  const next: Template = { ...template, ...change.values, version: template.version + 1, updatedAt: at };
  const addedBytes = (change.addDocuments ?? []).reduce((sum, d) => sum + d.byteSize, 0);
  const guards: BatchStatement[] = [
    // Restoring makes a template active again: exact against the plan's limit, like a create.
    ...(change.restores ? [templateLimitGuard(ctx)] : []),
    // New files (a replaced document keeps its old file for earlier versions) count against storage.
    ...(addedBytes > 0 ? [templateStorageGuard(ctx, addedBytes)] : []),
  ];
  const statements: BatchStatement[] = [
    ...guards,
    updateTemplateStatement(db, template, { ...change.values, version: next.version, updatedAt: at }),
    ...(change.removeDocumentIds?.length ? [removeDocumentsStatement(db, template.id, change.removeDocumentIds, at)] : []),
    ...(change.addDocuments?.length ? insertDocumentsStatements(db, template.publicId, change.addDocuments) : []),
    ...(change.positions ?? []).map((p) => reorderDocumentStatement(db, p.id, p.position)),
    ...(change.renames ?? []).map((r) => renameDocumentStatement(db, r.id, r.filename)),
    insertVersionStatement(db, template.publicId, {
      accountId: actor.accountId,
      version: next.version,
      authorId: actor.userId,
      changes: change.changes,
      snapshot: snapshotOf(next, change.documentsAfter),
      createdAt: at,
    }),
    outboxInsert(db, { accountId: actor.accountId, event: change.event, data: templateEventData(next, change.documentsAfter.length) }),
  ];
  let results: unknown[];
  try {
    results = await refusingPastTemplateLimit(ctx, () => db.batch(statements as Batch), {
      templates: change.restores === true,
      bytes: addedBytes,
    });
  } catch (error) {
    if (isVersionConflict(error)) throw conflict();
    throw error;
  }
  const [updated] = results[guards.length] as Template[];
  if (!updated) throw conflict();
  return updated;
}

function renameRoles(current: TemplateRole[], names: string[]): TemplateRole[] {
  return names.map((name, i) => ({ name, uuid: current[i]?.uuid ?? crypto.randomUUID() }));
}

export async function updateTemplate(ctx: TemplateContext, template: Template, input: UpdateTemplateInput): Promise<Template> {
  if (input.submitters && input.roles) throw unprocessable('Send either submitters or roles, not both.');
  await checkBrandPreference(ctx.db, ctx.actor.accountId, input.preferences);
  assertLevelWithinAccount(input.preferences, ctx.actor.signatureLevel);
  const documents = await listCurrentDocuments(ctx.db, [template.id]);
  const values: Partial<Template> = {};
  const changes: string[] = [];

  if (input.name !== undefined) values.name = input.name.trim();
  if (input.folder_name !== undefined) values.folderName = input.folder_name.trim() || 'Default';
  if (input.external_id !== undefined) values.externalId = input.external_id;
  if (input.shared !== undefined) values.shared = input.shared;

  let roles = template.submitters;
  if (input.submitters) roles = buildRoles(input.submitters, []);
  else if (input.roles) roles = buildRoles(renameRoles(template.submitters, input.roles), []);
  if (input.submitters || input.roles) values.submitters = roles;

  // Fields are re-checked whenever roles change, so no field is left with a removed role.
  if (input.fields || values.submitters) {
    const located = input.fields ? input.fields.map((f, i) => ({ label: `fields[${i}]`, input: f })) : storedAsInputs(template.fields);
    values.fields = buildFields(located, roles, documents);
  }
  if (input.preferences || values.fields) {
    values.preferences = mergePreferences(template.preferences, input.preferences, {
      documentUuids: documents.map((d) => d.uuid),
      fields: values.fields ?? template.fields,
    });
  }

  let event: EventName = 'template.updated';
  let restores = false;
  if (input.archived === true && !template.archivedAt) {
    values.archivedAt = nowIso();
    event = 'template.archived';
  } else if (input.archived === false && template.archivedAt) {
    await assertTemplateAllowance(ctx);
    values.archivedAt = null;
    restores = true;
  }

  for (const key of Object.keys(input) as (keyof UpdateTemplateInput)[]) {
    if (input[key] !== undefined) changes.push(key === 'fields' ? 'schema' : key === 'roles' ? 'submitters' : key);
  }
  return commit(ctx, template, { changes: [...new Set(changes)], values, event, documentsAfter: documents, restores });
}

export async function archiveTemplate(ctx: TemplateContext, template: Template): Promise<Template> {
  if (template.archivedAt) return template;
  return updateTemplate(ctx, template, { archived: true });
}

/** Removes rows first, then files: a failed file delete leaves an unreachable file, never a broken template. */
export async function deleteTemplatePermanently(ctx: TemplateContext, template: Template): Promise<void> {
  const { db, actor } = ctx;
  // Submissions keep signing (and their audit trails point at) this template's files; an erased one
  // keeps its audit trail and document hashes, which name the template (issue 33 › 5).
  if (await templateHasSubmissions(db, template.id)) {
    throw new ApiError(
      409,
      'This template has submissions, which keep its documents and audit trails (erased submissions too); archive the template instead.',
    );
  }
  const [keys, documents] = await Promise.all([listAllDocumentKeys(db, template.id), listCurrentDocuments(db, [template.id])]);
  const statements: BatchStatement[] = [...deleteTemplateStatements(db, template.id)];
  const at = nowIso();
  const event = template.archivedAt
    ? []
    : [
        outboxInsert(db, {
          accountId: actor.accountId,
          event: 'template.archived',
          data: templateEventData({ ...template, archivedAt: at, updatedAt: at }, documents.length),
        }),
      ];
  await db.batch([...statements, ...event] as Batch);
  await deleteStoredFiles(ctx.bucket, keys);
  await deleteDerivedFiles(ctx.bucket, keys);
}

export type DocumentChange = {
  label: string;
  /** Which existing document: its uuid, or its 0-based position (DocuSeal's form). */
  uuid?: string;
  position?: number;
  name?: string;
  upload?: Upload;
  remove?: boolean;
  replace?: boolean;
};

/**
 * Adds, replaces, renames or removes documents. A replaced document keeps its uuid, so fields stay on
 * it (their areas are re-checked against the new pages); areas on removed documents are dropped.
 */
export async function changeDocuments(
  ctx: TemplateContext,
  template: Template,
  requested: DocumentChange[],
): Promise<TemplateWithDocuments & { /** Each change's label → where its new file is stored. */ storedAt: Map<string, string> }> {
  const current = await listCurrentDocuments(ctx.db, [template.id]);
  const problems: string[] = [];
  const target = (change: DocumentChange): TemplateDocument | undefined => {
    if (change.uuid) return current.find((d) => d.uuid === change.uuid!.toLowerCase());
    if (change.position !== undefined && (change.remove || change.replace)) return current[change.position];
    return undefined;
  };
  const removals = new Set<number>();
  const replacements = new Map<number, DocumentChange>();
  const renames = new Map<number, string>();
  const additions: DocumentChange[] = [];
  for (const change of requested) {
    const existing = target(change);
    const identified = change.uuid !== undefined || (change.position !== undefined && (change.remove || change.replace));
    if (identified && !existing) {
      problems.push(
        `${change.label} names ${change.uuid ? `document ${change.uuid}` : `position ${change.position}`}, which is not a current document of this template.`,
      );
      continue;
    }
    if (existing && (removals.has(existing.id) || replacements.has(existing.id))) {
      problems.push(`${change.label} changes a document that another entry already changes.`);
      continue;
    }
    if (change.remove) {
      removals.add(existing!.id);
    } else if (existing && change.upload) {
      replacements.set(existing.id, change);
    } else if (existing) {
      if (change.name === undefined) problems.push(`${change.label} changes nothing; send file, name or remove.`);
      else renames.set(existing.id, change.name.trim());
    } else if (change.upload) {
      additions.push(change);
    } else {
      problems.push(`${change.label} needs a file to add a document.`);
    }
  }
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  const remaining = current.filter((d) => !removals.has(d.id));
  if (remaining.length + additions.length === 0) throw unprocessable('A template must keep at least one document.');

  const kept = remaining.filter((d) => !replacements.has(d.id));
  // New files bring their text tags and AcroForm fields, as at creation (decisions.md › issue 19: text tags).
  const changed = [...replacements.values(), ...additions];
  const { withDocumentFields } = await import('./document-fields');
  const uploads = await withDocumentFields(changed.map((c) => ({ ...c.upload!, label: c.label, fields: [] as FieldInput[] })));
  await assertTemplateStorage(
    ctx,
    uploads.reduce((sum, u) => sum + u.bytes.byteLength, 0),
  );
  const { documents: prepared, stored } = await ingestDocuments(ctx.bucket, ctx.actor.accountId, uploads, {
    documents: kept.length,
    pages: kept.reduce((sum, d) => sum + d.pageCount, 0),
  });
  let updated: Template;
  // From here until the rows commit, any failure (a field the new pages no longer hold, a lost race)
  // deletes the files just stored.
  try {
    const replaced = [...replacements.entries()].map(([id, change], i) => {
      const old = current.find((d) => d.id === id)!;
      return { old, doc: { ...prepared[i], uuid: old.uuid, filename: change.name?.trim() || old.filename } };
    });
    const added = additions.map((change, i) => ({
      change,
      doc: { ...prepared[replaced.length + i], filename: change.name?.trim() || prepared[replaced.length + i].filename },
    }));

    // The new order: current order with replacements in place, additions at their position or the end.
    type Slot = { existing?: TemplateDocument; fresh?: PreparedDocument };
    const order: Slot[] = remaining.map((d) => {
      const r = replaced.find((x) => x.old.id === d.id);
      return r ? { fresh: r.doc } : { existing: d };
    });
    for (const { change, doc } of added) {
      const at = change.position !== undefined ? Math.min(change.position, order.length) : order.length;
      order.splice(at, 0, { fresh: doc });
    }
    const pages = order.map((s) =>
      s.existing
        ? s.existing
        : {
            uuid: s.fresh!.uuid,
            pageCount: s.fresh!.pageCount,
            pageDimensions: s.fresh!.pageDimensions,
            certifiedForm: s.fresh!.certifiedForm,
          },
    );
    const removedUuids = new Set(current.filter((d) => removals.has(d.id)).map((d) => d.uuid));
    const fields: TemplateField[] = template.fields.map((f) => ({
      ...f,
      areas: f.areas.filter((a) => !removedUuids.has(a.attachment_uuid)),
    }));
    // Replacements come first in `uploads`, then additions, as in `prepared`.
    const newUuids = [...replaced.map((r) => r.doc.uuid), ...added.map((a) => a.doc.uuid)];
    const imported: LocatedField[] = uploads.flatMap((u, i) =>
      (u.fields ?? []).map((input, j) => ({ label: `${changed[i].label}.fields[${j}]`, input, document: newUuids[i] })),
    );
    const roles = withRolesNamedBy(template.submitters, imported);
    const checkedFields = buildFields([...storedAsInputs(fields), ...imported], roles, pages);
    const preferences = withoutDocuments(template.preferences, removedUuids);

    const addRows: NewTemplateDocument[] = order.flatMap((s, position) =>
      s.fresh
        ? [
            {
              accountId: ctx.actor.accountId,
              uuid: s.fresh.uuid,
              filename: s.fresh.filename,
              contentType: s.fresh.contentType,
              byteSize: s.fresh.byteSize,
              sha256: s.fresh.sha256,
              pageCount: s.fresh.pageCount,
              pageDimensions: s.fresh.pageDimensions,
              certifiedForm: s.fresh.certifiedForm,
              r2Key: s.fresh.r2Key,
              position,
            },
          ]
        : [],
    );
    const positions = order.flatMap((s, position) => (s.existing ? [{ id: s.existing.id, position }] : []));
    const renamed = [...renames.entries()].map(([id, filename]) => ({ id, filename }));
    updated = await commit(ctx, template, {
      changes: ['documents', ...(imported.length ? ['schema'] : []), ...(roles !== template.submitters ? ['submitters'] : [])],
      values: { fields: checkedFields, preferences, ...(roles !== template.submitters ? { submitters: roles } : {}) },
      event: 'template.updated',
      removeDocumentIds: [...removals, ...replaced.map((r) => r.old.id)],
      addDocuments: addRows,
      positions,
      renames: renamed,
      documentsAfter: order.map(
        (s) =>
          (s.existing ? { ...s.existing, filename: renames.get(s.existing.id) ?? s.existing.filename } : null) ?? {
            id: 0,
            uuid: s.fresh!.uuid,
            filename: s.fresh!.filename,
            pageCount: s.fresh!.pageCount,
            sha256: s.fresh!.sha256,
          },
      ),
    });
  } catch (error) {
    await deleteStoredFiles(ctx.bucket, stored);
    throw error;
  }
  // After the commit the rows own the files: a failed read here must not delete them.
  const storedAt = new Map(changed.map((change, i) => [change.label, prepared[i].r2Key]));
  return { template: updated, documents: await listCurrentDocuments(ctx.db, [template.id]), storedAt };
}
