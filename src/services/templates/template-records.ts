// What templates write besides themselves: the webhook payload (spec › Events › template.*), the
// version snapshot, the plan's template-count and storage checks, and the identifiers a new template gets.
import type { BatchStatement, Db } from '../../db/client';
import { isPlanLimitGuardFailure } from '../../db/queries/plan-limits';
import { storedBytes } from '../../db/queries/storage';
import { activeTemplatesCountQuery, countActiveTemplates } from '../../db/queries/templates';
import type { Template, TemplateDocument, TemplateSnapshot } from '../../db/schema/index';
import { ApiError } from '../../lib/errors';
import { planOf } from '../../lib/plans';
import { randomBase62 } from '../../lib/random';
import { assertStorageFor, planLimitGuard, planLimitReached, storageLimitGuard, storageLimitReached } from '../plan-limits';

/** Who is acting, and where a plan-limit 403 sends them (spec › Errors rule 1). */
/** Who changes templates: `signatureLevel` is the account's, the most `preferences.signature_level` may ask for. */
export type Actor = { accountId: number; userId: number; plan: string; upgradeUrl: string; signatureLevel: SignatureLevel };

import type { SignatureLevel } from '../../db/schema/accounts';

export type TemplateContext = {
  db: Db;
  bucket: R2Bucket;
  actor: Actor;
  /**
   * The request's audit row for a new template (by its public id), written in the template's own
   * batch: one D1 round trip less, and the change and its record commit together.
   */
  auditStatement?: (templatePublicId: string) => BatchStatement;
};

export const TEMPLATE_ID_PREFIX = 'tpl_';

export function newTemplateIds(): { publicId: string; slug: string } {
  return { publicId: TEMPLATE_ID_PREFIX + randomBase62(20), slug: randomBase62(14) };
}

/** The `data` of template.created / template.updated / template.archived. */
export function templateEventData(template: Template, documentCount: number): Record<string, unknown> {
  return {
    template: {
      id: template.publicId,
      name: template.name,
      slug: template.slug,
      external_id: template.externalId,
      folder_name: template.folderName,
      source: template.source,
      created_at: template.createdAt,
      updated_at: template.updatedAt,
      submitters: template.submitters.map(({ uuid, name }) => ({ uuid, name })),
      field_count: template.fields.length,
      document_count: documentCount,
    },
  };
}

type SnapshotSource = Pick<
  Template,
  'name' | 'folderName' | 'externalId' | 'shared' | 'archivedAt' | 'submitters' | 'fields' | 'preferences'
>;

export function snapshotOf(
  template: SnapshotSource,
  documents: Pick<TemplateDocument, 'id' | 'uuid' | 'filename' | 'pageCount' | 'sha256'>[],
): TemplateSnapshot {
  return {
    name: template.name,
    folder_name: template.folderName,
    external_id: template.externalId,
    shared: template.shared,
    archived: template.archivedAt !== null,
    submitters: template.submitters,
    schema: template.fields,
    preferences: template.preferences,
    documents: documents.map((d) => ({ id: d.id, uuid: d.uuid, filename: d.filename, page_count: d.pageCount, sha256: d.sha256 })),
  };
}

function templateLimitReached(actor: Actor): ApiError {
  return planLimitReached(actor, 'templates', actor.upgradeUrl);
}

/**
 * The plan's `templates` limit counts active (not archived) templates; 403 with upgrade_url beyond it.
 * This early check saves parsing and storing files that would be refused; the exact check is
 * `templateLimitGuard` in the batch that writes.
 */
export async function assertTemplateAllowance(ctx: TemplateContext, adding = 1): Promise<void> {
  const limit = planOf(ctx.actor.plan).limits.templates;
  if (!Number.isFinite(limit)) return;
  const active = await countActiveTemplates(ctx.db, ctx.actor.accountId);
  if (active + adding > limit) throw templateLimitReached(ctx.actor);
}

/** First statement of a batch that makes a template active: aborts the batch past the plan's limit. */
export function templateLimitGuard(ctx: TemplateContext) {
  return planLimitGuard(ctx.db, ctx.actor, 'templates', activeTemplatesCountQuery(ctx.db, ctx.actor.accountId));
}

/**
 * The plan's storage (every stored document counts, docs/limits.md › Plans): 403 with upgrade_url when
 * `addingBytes` more would pass it. The early check; `templateStorageGuard` is the exact one.
 */
export function assertTemplateStorage(ctx: TemplateContext, addingBytes: number): Promise<void> {
  return assertStorageFor(ctx.db, { id: ctx.actor.accountId, plan: ctx.actor.plan }, addingBytes, ctx.actor.upgradeUrl);
}

/** A statement for the batch that adds documents of `addingBytes`: aborts it past the plan's storage. */
export function templateStorageGuard(ctx: TemplateContext, addingBytes: number) {
  return storageLimitGuard(ctx.db, { id: ctx.actor.accountId, plan: ctx.actor.plan }, addingBytes);
}

/**
 * Runs a batch holding `templateLimitGuard` (when `guards.templates`) and/or `templateStorageGuard` (when
 * `guards.bytes` > 0); a lost race answers the same 403 as the early checks. Both guards fail the same
 * way, so with both in the batch the storage is read again to say which.
 */
export async function refusingPastTemplateLimit<T>(
  ctx: TemplateContext,
  write: () => Promise<T>,
  guards: { templates: boolean; bytes: number },
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isPlanLimitGuardFailure(error)) throw error;
    if (guards.bytes > 0) {
      const used = await storedBytes(ctx.db, ctx.actor.accountId);
      const max = planOf(ctx.actor.plan).limits.storageBytes;
      if (!guards.templates || used + guards.bytes > max) throw storageLimitReached(ctx.actor, used, guards.bytes, ctx.actor.upgradeUrl);
    }
    throw templateLimitReached(ctx.actor);
  }
}
