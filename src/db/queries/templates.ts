// Template rows, their documents and versions. Statement builders (`…Statement`) return unexecuted
// queries so services can put a change and its outbox event in one `db.batch([...])`.
import { and, asc, count, desc, eq, getTableColumns, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { inList, insertPacked } from '../bound-parameters';
import type { Db } from '../client';
import { templateDocuments, templates, templateVersions, type Template, type TemplateDocument, type TemplateVersion } from '../schema';
import type { PageQuery } from '../../lib/pagination';

export type NewTemplate = typeof templates.$inferInsert;
export type NewTemplateDocument = Omit<typeof templateDocuments.$inferInsert, 'templateId'>;
export type NewTemplateVersion = Omit<typeof templateVersions.$inferInsert, 'templateId'>;

/** Public `tpl_…` ids and integer row ids are both accepted (decisions.md › Identity and ids). */
/** The account's template `ref` names: its id when all digits, else its public id. */
function templateWhere(accountId: number, ref: string | number): SQL | undefined {
  const text = String(ref);
  const condition = /^\d{1,15}$/.test(text) ? eq(templates.id, Number(text)) : eq(templates.publicId, text);
  return and(eq(templates.accountId, accountId), condition);
}

export async function findTemplate(db: Db, accountId: number, ref: string | number): Promise<Template | undefined> {
  return db.select().from(templates).where(templateWhere(accountId, ref)).get();
}

/**
 * A template (by id or public id) and its current documents, as findTemplate and listCurrentDocuments
 * give them, in one D1 round trip; no documents when there is no such template.
 */
export async function findTemplateWithDocuments(
  db: Db,
  accountId: number,
  ref: string | number,
): Promise<{ template: Template | undefined; documents: TemplateDocument[] }> {
  const where = templateWhere(accountId, ref);
  const [found, documents] = await db.batch([
    db.select().from(templates).where(where),
    db
      .select()
      .from(templateDocuments)
      .where(
        and(
          eq(templateDocuments.templateId, sql`(${db.select({ id: templates.id }).from(templates).where(where)})`),
          isNull(templateDocuments.removedAt),
        ),
      )
      .orderBy(asc(templateDocuments.position), asc(templateDocuments.id)),
  ]);
  return { template: found[0], documents };
}

export async function findTemplates(db: Db, accountId: number, refs: (string | number)[]): Promise<Template[]> {
  const ids = refs.filter((r) => /^\d{1,15}$/.test(String(r))).map(Number);
  const publicIds = refs.filter((r) => !/^\d{1,15}$/.test(String(r))).map(String);
  return db
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.accountId, accountId),
        or(ids.length ? inList(templates.id, ids) : undefined, publicIds.length ? inList(templates.publicId, publicIds) : undefined),
      ),
    );
}

/** Current (not removed) documents of the given templates, in template order. */
export async function listCurrentDocuments(db: Db, templateIds: number[]): Promise<TemplateDocument[]> {
  if (templateIds.length === 0) return [];
  return db
    .select()
    .from(templateDocuments)
    .where(and(inList(templateDocuments.templateId, templateIds), isNull(templateDocuments.removedAt)))
    .orderBy(asc(templateDocuments.templateId), asc(templateDocuments.position), asc(templateDocuments.id));
}

export async function findCurrentDocument(db: Db, templateId: number, ref: string): Promise<TemplateDocument | undefined> {
  const condition = /^\d{1,15}$/.test(ref) ? eq(templateDocuments.id, Number(ref)) : eq(templateDocuments.uuid, ref.toLowerCase());
  return db
    .select()
    .from(templateDocuments)
    .where(and(eq(templateDocuments.templateId, templateId), isNull(templateDocuments.removedAt), condition))
    .get();
}

/** Current documents of an account by row id (background work names documents by id). */
export async function findCurrentDocumentsByIds(db: Db, accountId: number, ids: number[]): Promise<TemplateDocument[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(templateDocuments)
    .where(and(eq(templateDocuments.accountId, accountId), inList(templateDocuments.id, ids), isNull(templateDocuments.removedAt)))
    .orderBy(asc(templateDocuments.id));
}

/**
 * Records the bytes a document's thumbnails hold in R2. Set, not added: it is what R2 holds after a run,
 * so repeated or concurrent runs leave the right number.
 */
export async function setThumbnailBytes(db: Db, accountId: number, documentId: number, bytes: number): Promise<void> {
  await db
    .update(templateDocuments)
    .set({ thumbnailBytes: bytes })
    .where(and(eq(templateDocuments.accountId, accountId), eq(templateDocuments.id, documentId)));
}

/** Every stored file of a template, removed documents included: what a permanent delete must erase. */
export async function listAllDocumentKeys(db: Db, templateId: number): Promise<string[]> {
  const rows = await db
    .select({ key: templateDocuments.r2Key })
    .from(templateDocuments)
    .where(eq(templateDocuments.templateId, templateId));
  return rows.map((r) => r.key);
}

/** `SELECT count(*)` of the account's active templates, unexecuted: also a plan-limit guard's count. */
export function activeTemplatesCountQuery(db: Db, accountId: number) {
  return db
    .select({ n: count() })
    .from(templates)
    .where(and(eq(templates.accountId, accountId), isNull(templates.archivedAt)));
}

export async function countActiveTemplates(db: Db, accountId: number): Promise<number> {
  const [row] = await activeTemplatesCountQuery(db, accountId);
  return row.n;
}

export type TemplateFilters = {
  q?: string;
  externalId?: string;
  folder?: string;
  slug?: string;
  archived: boolean;
};

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A page of the account's templates (newest first), how many match in all, and the current documents of
 * the page's templates: one D1 round trip, and one snapshot, so the total and the page agree.
 */
export async function listTemplates(
  db: Db,
  accountId: number,
  filters: TemplateFilters,
  page: PageQuery,
): Promise<{ rows: Template[]; total: number; documents: TemplateDocument[] }> {
  const conditions: (SQL | undefined)[] = [
    eq(templates.accountId, accountId),
    filters.archived ? isNotNull(templates.archivedAt) : isNull(templates.archivedAt),
    filters.externalId !== undefined ? eq(templates.externalId, filters.externalId) : undefined,
    filters.folder !== undefined ? sql`lower(${templates.folderName}) = lower(${filters.folder})` : undefined,
    filters.slug !== undefined ? eq(templates.slug, filters.slug) : undefined,
    filters.q ? sql`${templates.name} LIKE ${`%${escapeLike(filters.q)}%`} ESCAPE '\\'` : undefined,
  ];
  const where = and(...conditions);
  const [limit, offset] = [page.per_page, (page.page - 1) * page.per_page];
  const pageIds = db
    .select({ id: templates.id })
    .from(templates)
    .where(where)
    .orderBy(desc(templates.id))
    .limit(limit)
    .offset(offset)
    .as('page');
  const [rows, [{ n }], documents] = await db.batch([
    db.select().from(templates).where(where).orderBy(desc(templates.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(templates).where(where),
    db
      .select(getTableColumns(templateDocuments))
      .from(templateDocuments)
      .innerJoin(pageIds, eq(pageIds.id, templateDocuments.templateId))
      .where(isNull(templateDocuments.removedAt))
      .orderBy(asc(templateDocuments.templateId), asc(templateDocuments.position), asc(templateDocuments.id)),
  ]);
  return { rows, total: n, documents };
}

/** The account's folder names in use (active or archived templates), alphabetically. */
export async function listTemplateFolders(db: Db, accountId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ folder: templates.folderName })
    .from(templates)
    .where(eq(templates.accountId, accountId))
    .orderBy(asc(templates.folderName))
    .limit(200);
  return rows.map((r) => r.folder);
}

export function insertTemplateStatement(db: Db, values: NewTemplate) {
  return db.insert(templates).values(values).returning();
}

/** Rows of a template inserted in the same batch: the template is found by its public id. */
function templateIdOf(publicId: string): SQL<number> {
  return sql<number>`(SELECT ${templates.id} FROM ${templates} WHERE ${templates.publicId} = ${publicId})`;
}

/** One insert per few documents (a template holds up to 10, more than one statement can bind); each returns its rows. */
export function insertDocumentsStatements(db: Db, templatePublicId: string, documents: NewTemplateDocument[]) {
  const rows = documents.map((d) => ({ ...d, templateId: templateIdOf(templatePublicId) }));
  return insertPacked(templateDocuments, rows, (chunk) => db.insert(templateDocuments).values(chunk).returning());
}

export function insertVersionStatement(db: Db, templatePublicId: string, version: NewTemplateVersion) {
  return db.insert(templateVersions).values({ ...version, templateId: templateIdOf(templatePublicId) });
}

/**
 * Writes `changes` only if the template is still at `expectedVersion`. A concurrent writer makes this
 * match nothing, and the version insert in the same batch then fails on its unique index: the batch
 * rolls back and the caller answers 409.
 */
export function updateTemplateStatement(db: Db, template: Pick<Template, 'id' | 'accountId' | 'version'>, changes: Partial<NewTemplate>) {
  return db
    .update(templates)
    .set(changes)
    .where(and(eq(templates.id, template.id), eq(templates.accountId, template.accountId), eq(templates.version, template.version)))
    .returning();
}

export function removeDocumentsStatement(db: Db, templateId: number, ids: number[], at: string) {
  return db
    .update(templateDocuments)
    .set({ removedAt: at })
    .where(and(eq(templateDocuments.templateId, templateId), inList(templateDocuments.id, ids)));
}

export function reorderDocumentStatement(db: Db, id: number, position: number) {
  return db.update(templateDocuments).set({ position }).where(eq(templateDocuments.id, id));
}

export function renameDocumentStatement(db: Db, id: number, filename: string) {
  return db.update(templateDocuments).set({ filename }).where(eq(templateDocuments.id, id));
}

export function deleteTemplateStatements(db: Db, templateId: number) {
  return [
    db.delete(templateDocuments).where(eq(templateDocuments.templateId, templateId)),
    db.delete(templateVersions).where(eq(templateVersions.templateId, templateId)),
    db.delete(templates).where(eq(templates.id, templateId)),
  ] as const;
}

export async function listVersions(db: Db, templateId: number, page: PageQuery): Promise<{ rows: TemplateVersion[]; total: number }> {
  const where = eq(templateVersions.templateId, templateId);
  const [rows, [{ n }]] = await Promise.all([
    db
      .select()
      .from(templateVersions)
      .where(where)
      .orderBy(desc(templateVersions.version))
      .limit(page.per_page)
      .offset((page.page - 1) * page.per_page),
    db.select({ n: count() }).from(templateVersions).where(where),
  ]);
  return { rows, total: n };
}

/** Is this one of the "another request changed it" failures of an optimistic update batch? */
export function isVersionConflict(error: unknown): boolean {
  const text = String((error as { cause?: unknown })?.cause ?? error);
  return /UNIQUE constraint failed: template_versions/.test(text) || /UNIQUE constraint failed: template_documents\.template_id/.test(text);
}
