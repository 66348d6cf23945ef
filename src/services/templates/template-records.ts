// What templates write besides themselves: the webhook payload (spec › Events › template.*), the
// version snapshot, the plan limit check, and the identifiers a new template gets.
import type { Db } from '../../db/client';
import { countActiveTemplates } from '../../db/queries/templates';
import type { Template, TemplateDocument, TemplateSnapshot } from '../../db/schema/index';
import { ApiError } from '../../lib/errors';
import { planOf } from '../../lib/plans';
import { randomBase62 } from '../../lib/random';

/** Who is acting, and where a plan-limit 403 sends them (spec › Errors rule 1). */
export type Actor = { accountId: number; userId: number; plan: string; upgradeUrl: string };

export type TemplateContext = { db: Db; bucket: R2Bucket; actor: Actor };

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

export function snapshotOf(template: SnapshotSource, documents: Pick<TemplateDocument, 'id' | 'uuid' | 'filename' | 'pageCount' | 'sha256'>[]): TemplateSnapshot {
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

/** The plan's `templates` limit counts active (not archived) templates; 403 with upgrade_url beyond it. */
export async function assertTemplateAllowance(ctx: TemplateContext, adding = 1): Promise<void> {
  const { accountId, plan, upgradeUrl } = ctx.actor;
  const limit = planOf(plan).limits.templates;
  if (!Number.isFinite(limit)) return;
  const active = await countActiveTemplates(ctx.db, accountId);
  if (active + adding > limit) {
    throw new ApiError(403, `Your ${plan} plan allows ${limit} active templates; archive one or upgrade.`, { upgrade_url: upgradeUrl });
  }
}
