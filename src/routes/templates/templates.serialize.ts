// The JSON shape of templates and their documents and versions (spec › Template, Template document).
import type { Template, TemplateDocument, TemplateVersion } from '../../db/schema/index';
import { THUMBNAIL_WIDTH } from '../../services/templates/thumbnails';

export function templatePath(template: Pick<Template, 'publicId'>): string {
  return `/api/templates/${template.publicId}`;
}

/** The URL GET …/documents/thumbnail answers at; defaults (first document, page 1, default width) left out. */
export function thumbnailUrl(
  base: string,
  template: Pick<Template, 'publicId'>,
  options: { documentUuid?: string; page?: number; width?: number } = {},
): string {
  const query = new URLSearchParams();
  if (options.documentUuid) query.set('document_id', options.documentUuid);
  if (options.page && options.page !== 1) query.set('page', String(options.page));
  if (options.width && options.width !== THUMBNAIL_WIDTH.default) query.set('width', String(options.width));
  const search = query.toString();
  return `${base}${templatePath(template)}/documents/thumbnail${search ? `?${search}` : ''}`;
}

export function serializeDocument(template: Pick<Template, 'publicId'>, document: TemplateDocument, base: string) {
  return {
    id: document.id,
    uuid: document.uuid,
    filename: document.filename,
    content_type: document.contentType,
    byte_size: document.byteSize,
    sha256: document.sha256,
    page_count: document.pageCount,
    page_dimensions: document.pageDimensions,
    url: `${base}${templatePath(template)}/documents/${document.uuid}`,
    thumbnail_url: thumbnailUrl(base, template, { documentUuid: document.uuid }),
  };
}

export function serializeTemplate(template: Template, documents: TemplateDocument[], base: string) {
  return {
    id: template.publicId,
    name: template.name,
    slug: template.slug,
    external_id: template.externalId,
    folder_name: template.folderName,
    source: template.source,
    shared: template.shared,
    version: template.version,
    archived_at: template.archivedAt,
    created_at: template.createdAt,
    updated_at: template.updatedAt,
    download_url: `${base}${templatePath(template)}/download`,
    thumbnail_url: thumbnailUrl(base, template),
    schema: template.fields,
    submitters: template.submitters,
    preferences: template.preferences,
    documents: documents.map((d) => serializeDocument(template, d, base)),
  };
}

export function serializeVersion(version: TemplateVersion) {
  return {
    version: version.version,
    author_id: version.authorId,
    changes: version.changes,
    created_at: version.createdAt,
    template: version.snapshot,
  };
}
