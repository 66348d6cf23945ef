// Templates: their stored documents (files in R2), their version history, and saved field configurations.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

// The schema's field, area and role shapes are rules the builder in the browser uses too (src/shared).
import type { TemplateField, TemplateRole } from '../../shared/template-schema';
export { FIELD_TYPES, type FieldType, type TemplateArea, type TemplateField, type TemplateRole } from '../../shared/template-schema';

export const templates = sqliteTable(
  'templates',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    /** `tpl_` + 20 base62 characters: the id the API shows (decisions.md › Identity and ids). */
    publicId: text('public_id').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    externalId: text('external_id'),
    folderName: text('folder_name').notNull().default('Default'),
    /** How the template came to be: api | clone | merge. */
    source: text('source').notNull().default('api'),
    shared: integer('shared', { mode: 'boolean' }).notNull().default(false),
    authorId: integer('author_id'),
    submitters: text('submitters', { mode: 'json' }).$type<TemplateRole[]>().notNull(),
    fields: text('fields', { mode: 'json' }).$type<TemplateField[]>().notNull(),
    preferences: text('preferences', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** The number of the latest stored version; an update writes version + 1 or fails (no lost updates). */
    version: integer('version').notNull().default(1),
    archivedAt: text('archived_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('templates_public_id').on(t.publicId),
    uniqueIndex('templates_slug').on(t.slug),
    index('templates_account').on(t.accountId, t.id),
    // The account's active (or archived) templates newest first, and their count, from the index alone:
    // every list page counts them (pagination.total) and every create of a limited plan guards on it.
    index('templates_account_active').on(t.accountId, t.archivedAt, t.id),
    index('templates_account_external_id').on(t.accountId, t.externalId),
  ],
);

export type PageDimensions = { width: number; height: number };

/**
 * A document certified by its author with DocMDP P=2 or 3 (issue 33 › 6): the only fields it takes are
 * its own form's, listed here by fully qualified name and the template field type they can carry.
 */
export type CertifiedForm = {
  permission: 2 | 3;
  fields: { name: string; type: 'text' | 'checkbox' | 'radio' | 'select' | 'signature' }[];
};

export const templateDocuments = sqliteTable(
  'template_documents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id),
    /** The id fields' areas point at (`attachment_uuid`); kept when the file is replaced. */
    uuid: text('uuid').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    sha256: text('sha256').notNull(),
    pageCount: integer('page_count').notNull(),
    pageDimensions: text('page_dimensions', { mode: 'json' }).$type<PageDimensions[]>().notNull(),
    /** Set for a document certified with DocMDP P=2/3: the form fields its template fields must be. */
    certifiedForm: text('certified_form', { mode: 'json' }).$type<CertifiedForm>(),
    /** Key of the file in the FILES bucket; unique per row, so replacing a file never overwrites one. */
    r2Key: text('r2_key').notNull(),
    position: integer('position').notNull(),
    /**
     * Set when the document is removed or replaced: the row and its file stay until the template is
     * deleted permanently, so versions and submissions made from earlier versions keep their files.
     */
    removedAt: text('removed_at'),
    createdAt: text('created_at').notNull().default(now),
    /**
     * Bytes of the document's thumbnails in R2 (`<r2Key>/thumbnails/…`), set to what is stored after each
     * drawing run; part of the account's storage (src/db/queries/storage.ts).
     */
    thumbnailBytes: integer('thumbnail_bytes').notNull().default(0),
  },
  (t) => [
    index('template_documents_template').on(t.templateId, t.position),
    uniqueIndex('template_documents_current_uuid').on(t.templateId, t.uuid).where(sql`${t.removedAt} IS NULL`),
    uniqueIndex('template_documents_r2_key').on(t.r2Key),
    // Covering index of the account's storage sum (src/db/queries/storage.ts).
    index('template_documents_account_bytes').on(t.accountId, t.byteSize, t.thumbnailBytes),
  ],
);

/** What a version records: the template as it was after the change. */
export type TemplateSnapshot = {
  name: string;
  folder_name: string;
  external_id: string | null;
  shared: boolean;
  archived: boolean;
  submitters: TemplateRole[];
  schema: TemplateField[];
  preferences: Record<string, unknown>;
  documents: { id: number; uuid: string; filename: string; page_count: number; sha256: string }[];
};

export const templateVersions = sqliteTable(
  'template_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id),
    version: integer('version').notNull(),
    authorId: integer('author_id'),
    /** Top-level keys the change touched, e.g. ["name", "schema"]; ["created"] for version 1. */
    changes: text('changes', { mode: 'json' }).$type<string[]>().notNull(),
    snapshot: text('snapshot', { mode: 'json' }).$type<TemplateSnapshot>().notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('template_versions_template_version').on(t.templateId, t.version)],
);

/** A reusable field configuration an account keeps for its template editors. */
export const savedFields = sqliteTable(
  'saved_fields',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    authorId: integer('author_id'),
    name: text('name').notNull(),
    field: text('field', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    index('saved_fields_account').on(t.accountId, t.id),
    uniqueIndex('saved_fields_account_name').on(t.accountId, sql`lower(${t.name})`),
  ],
);

export type Template = typeof templates.$inferSelect;
export type TemplateDocument = typeof templateDocuments.$inferSelect;
export type TemplateVersion = typeof templateVersions.$inferSelect;
export type SavedField = typeof savedFields.$inferSelect;
