// The JSON shape of templates and their documents and versions (spec › Template, Template document).
import type { Template, TemplateDocument, TemplateVersion } from '../../db/schema/index';

export function templatePath(template: Pick<Template, 'publicId'>): string {
  return `/api/templates/${template.publicId}`;
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
