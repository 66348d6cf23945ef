// Handlers for templates: parse the request, call the template services, shape the response.
import { queuePageImages } from '../../services/signing/page-images';
import type { AppRouteHandler } from '../app-route-handler';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import type { Db } from '../../db/client';
import * as templatesDb from '../../db/queries/templates';
import type { Template } from '../../db/schema/index';
import { ApiError, notFound } from '../../lib/errors';
import { pageMeta } from '../../lib/pagination';
import { baseUrl } from '../../lib/request';
import { validationError } from '../../lib/validation';
import { auditStatementFor } from '../../middleware/audit';
import { upgradeUrl } from '../../middleware/authorize';
import * as creating from '../../services/templates/create-template';
import { browserLauncher } from '../../services/rendering/browser-launches';
import { convertDocxUploads, DOCX_CONTENT_TYPE, docxSourceKey, keepDocxSources } from '../../services/templates/docx-documents';
import { attachment } from '../../lib/content-disposition';
import * as updating from '../../services/templates/update-template';
import type { TemplateContext } from '../../services/templates/template-records';
import { readTemplateBody, toUpload } from './template-body';
import { changeDocumentsBody, createTemplateBody } from './templates.schemas';
import { serializeDocument, serializeTemplate, serializeVersion } from './templates.serialize';
import type * as routes from './templates.routes';

/** A file as it arrives: base64 / data-URL text in JSON, a File part in multipart. */
const fileValue = z.custom<string | File>(
  (value) => typeof value === 'string' || value instanceof File,
  'must be a file: base64 text, a data URL, or a multipart file part',
);
const createBody = createTemplateBody(fileValue);
const documentsBody = changeDocumentsBody(fileValue);

export function contextOf(c: Context<AppEnv>, db: Db): TemplateContext {
  const { account, user } = c.var.principal;
  return {
    db,
    bucket: c.env.FILES,
    actor: {
      accountId: account.id,
      userId: user.id,
      plan: account.plan,
      upgradeUrl: upgradeUrl(c.req.raw, c.env.APP_URL),
      signatureLevel: account.signatureLevel,
    },
  };
}

/** The template the request may reach, else 404. */
function reachable(c: Context<AppEnv>, template: Template | undefined): Template {
  if (!template) throw notFound('Template');
  // A builder embed token reaches its one template; another one is simply not found (docs/embedding.md).
  const embed = c.var.embed;
  if (embed && !(embed.resourceType === 'template' && embed.resourceId === template.publicId)) throw notFound('Template');
  return template;
}

export async function loadTemplate(c: Context<AppEnv>, db: Db, id: string): Promise<Template> {
  return reachable(c, await templatesDb.findTemplate(db, c.var.principal.account.id, id));
}

async function templateJson(c: Context<AppEnv>, db: Db, template: Template) {
  const documents = await templatesDb.listCurrentDocuments(db, [template.id]);
  return serializeTemplate(template, documents, baseUrl(c.req.raw, c.env.APP_URL));
}

function audit(c: Context<AppEnv>, action: string, template: Template) {
  c.set('audit', { action, resourceType: 'template', resourceId: template.publicId });
}

/** A create whose audit row goes into the template's own batch (auditStatementFor), answering 201. */
export function creatingContext(c: Context<AppEnv>, db: Db, action: string): TemplateContext {
  return {
    ...contextOf(c, db),
    auditStatement: (publicId) => auditStatementFor(c, db, 201, { action, resourceType: 'template', resourceId: publicId }),
  };
}

/** After a create whose batch held its audit row: the note (for idempotent replays) and no second row. */
export function recordedCreate(c: Context<AppEnv>, action: string, template: Template) {
  audit(c, action, template);
  c.set('auditRecorded', 201);
}

async function parseWith<T extends z.ZodType>(schema: T, c: Context<AppEnv>): Promise<z.infer<T>> {
  const input = await readTemplateBody(c);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error, input);
  return parsed.data;
}

export const createTemplate: AppRouteHandler<typeof routes.createTemplate> = async (c) => {
  const body = await parseWith(createBody, c);
  const documents = [];
  // One at a time: each decoded file is checked for size before the next is decoded.
  for (const [i, entry] of (body.documents ?? []).entries()) {
    documents.push({ ...(await toUpload(`documents[${i}]`, entry, i)), fields: entry.fields });
  }
  // DOCX files become their printed PDFs here; the template is then made exactly as from PDFs.
  const converted = await convertDocxUploads(browserLauncher(c.env, c.var.principal.account.id), documents);
  const db = c.var.scope.db;
  const created = await creating.createTemplate(creatingContext(c, db, 'template.create'), { ...body, documents });
  // After the rows exist (their keys are chosen by the ingest), as for HTML sources.
  await keepDocxSources(c.env.FILES, created.documents, converted);
  // The signing page shows stored page images (issue 31 › 6): drawn in the background before a signer opens a link.
  c.executionCtx.waitUntil(queuePageImages(c.var.scope.queues.sealing, c.env.BROWSER, c.var.principal.account.id, created.documents));
  recordedCreate(c, 'template.create', created.template);
  // The batch returned the document rows: no second read.
  return c.json(serializeTemplate(created.template, created.documents, baseUrl(c.req.raw, c.env.APP_URL)), 201);
};

export const createTemplateFromPdf: AppRouteHandler<typeof routes.createTemplateFromPdf> = createTemplate as never;
export const createTemplateFromDocx: AppRouteHandler<typeof routes.createTemplateFromDocx> = createTemplate as never;

export const listTemplates: AppRouteHandler<typeof routes.listTemplates> = async (c) => {
  const query = c.req.valid('query');
  const db = c.var.scope.db;
  const { rows, total, documents } = await templatesDb.listTemplates(
    db,
    c.var.principal.account.id,
    { q: query.q, externalId: query.external_id, folder: query.folder, slug: query.slug, archived: query.archived === 'true' },
    query,
  );
  const base = baseUrl(c.req.raw, c.env.APP_URL);
  return c.json(
    {
      data: rows.map((t) =>
        serializeTemplate(
          t,
          documents.filter((d) => d.templateId === t.id),
          base,
        ),
      ),
      pagination: pageMeta(query, total),
    },
    200,
  );
};

export const getTemplate: AppRouteHandler<typeof routes.getTemplate> = async (c) => {
  // The template and its documents in one round trip.
  const found = await templatesDb.findTemplateWithDocuments(c.var.scope.db, c.var.principal.account.id, c.req.valid('param').id);
  return c.json(serializeTemplate(reachable(c, found.template), found.documents, baseUrl(c.req.raw, c.env.APP_URL)), 200);
};

export const updateTemplate: AppRouteHandler<typeof routes.updateTemplate> = async (c) => {
  const { schema, fields, ...body } = c.req.valid('json');
  if (schema && fields) throw new ApiError(422, 'Send either fields or schema, not both.');
  const db = c.var.scope.db;
  const template = await loadTemplate(c, db, c.req.valid('param').id);
  const updated = await updating.updateTemplate(contextOf(c, db), template, { ...body, fields: fields ?? schema });
  audit(c, 'template.update', updated);
  return c.json(await templateJson(c, db, updated), 200);
};

export const deleteTemplate: AppRouteHandler<typeof routes.deleteTemplate> = async (c) => {
  const db = c.var.scope.db;
  const template = await loadTemplate(c, db, c.req.valid('param').id);
  if (c.req.valid('query').permanently === 'true') {
    await updating.deleteTemplatePermanently(contextOf(c, db), template);
    audit(c, 'template.delete', template);
    return c.body(null, 204);
  }
  const archived = await updating.archiveTemplate(contextOf(c, db), template);
  audit(c, 'template.archive', archived);
  return c.json(await templateJson(c, db, archived), 200);
};

export const listTemplateVersions: AppRouteHandler<typeof routes.listTemplateVersions> = async (c) => {
  const db = c.var.scope.db;
  const template = await loadTemplate(c, db, c.req.valid('param').id);
  const query = c.req.valid('query');
  const { rows, total } = await templatesDb.listVersions(db, template.id, query);
  return c.json({ data: rows.map(serializeVersion), pagination: pageMeta(query, total) }, 200);
};

export const listTemplateDocuments: AppRouteHandler<typeof routes.listTemplateDocuments> = async (c) => {
  const db = c.var.scope.db;
  const template = await loadTemplate(c, db, c.req.valid('param').id);
  const documents = await templatesDb.listCurrentDocuments(db, [template.id]);
  const base = baseUrl(c.req.raw, c.env.APP_URL);
  return c.json({ data: documents.map((d) => serializeDocument(template, d, base)) }, 200);
};

export const changeTemplateDocuments: AppRouteHandler<typeof routes.changeTemplateDocuments> = async (c) => {
  const db = c.var.scope.db;
  const template = await loadTemplate(c, db, c.req.valid('param').id);
  const body = await parseWith(documentsBody, c);
  const changes: updating.DocumentChange[] = [];
  for (const [i, entry] of body.documents.entries()) {
    const label = `documents[${i}]`;
    const upload = entry.file === undefined ? undefined : await toUpload(label, { name: entry.name, file: entry.file }, i);
    changes.push({
      label,
      uuid: entry.uuid,
      position: entry.position,
      name: entry.name,
      remove: entry.remove,
      replace: entry.replace,
      upload,
    });
  }
  // DOCX files become their printed PDFs, as on creation; their sources are kept once the rows exist.
  const withFiles = changes.filter((change) => change.upload);
  const uploads = withFiles.map((change) => change.upload!);
  const converted = await convertDocxUploads(browserLauncher(c.env, c.var.principal.account.id), uploads);
  for (const { index } of converted) {
    // A converted file's name loses its .docx, as on creation.
    withFiles[index].upload = uploads[index];
    if (withFiles[index].name !== undefined) withFiles[index].name = uploads[index].name;
  }
  const { template: updated, documents, storedAt } = await updating.changeDocuments(contextOf(c, db), template, changes);
  await keepDocxSources(
    c.env.FILES,
    withFiles.map((change) => ({ r2Key: storedAt.get(change.label)! })),
    converted,
  );
  audit(c, 'template.documents.update', updated);
  return c.json(serializeTemplate(updated, documents, baseUrl(c.req.raw, c.env.APP_URL)), 200);
};

export const downloadTemplateDocument: AppRouteHandler<typeof routes.downloadTemplateDocument> = async (c) => {
  const db = c.var.scope.db;
  const params = c.req.valid('param');
  const template = await loadTemplate(c, db, params.id);
  const document = await templatesDb.findCurrentDocument(db, template.id, params.document_id);
  if (!document) throw notFound('Document');
  const object = await c.env.FILES.get(document.r2Key);
  if (!object) throw notFound('Document file');
  return c.body(object.body, 200, {
    'Content-Type': document.contentType,
    'Content-Length': String(object.size),
    'Content-Disposition': attachment(`${document.filename}.pdf`),
    ETag: object.httpEtag,
    'Cache-Control': 'private, no-store',
  }) as never;
};

/** GET …/documents/{document_id}/original: the DOCX a document was printed from (spec › Template document: original kept). */
export const downloadTemplateDocumentOriginal: AppRouteHandler<typeof routes.downloadTemplateDocumentOriginal> = async (c) => {
  const db = c.var.scope.db;
  const params = c.req.valid('param');
  const template = await loadTemplate(c, db, params.id);
  const document = await templatesDb.findCurrentDocument(db, template.id, params.document_id);
  if (!document) throw notFound('Document');
  const object = await c.env.FILES.get(docxSourceKey(document.r2Key));
  if (!object) {
    throw new ApiError(
      404,
      `Document "${document.filename}" was not uploaded as DOCX, so it has no original besides its PDF; download it from /api/templates/${template.publicId}/documents/${document.id}.`,
    );
  }
  return c.body(object.body, 200, {
    'Content-Type': DOCX_CONTENT_TYPE,
    'Content-Length': String(object.size),
    'Content-Disposition': attachment(`${document.filename.replace(/\.(pdf|docx)$/i, '')}.docx`),
    ETag: object.httpEtag,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  }) as never;
};

export const downloadTemplate: AppRouteHandler<typeof routes.downloadTemplate> = async (c) => {
  const db = c.var.scope.db;
  const template = await loadTemplate(c, db, c.req.valid('param').id);
  const documents = await templatesDb.listCurrentDocuments(db, [template.id]);
  const headers = {
    'Content-Type': 'application/pdf',
    'Content-Disposition': attachment(`${template.name}.pdf`),
    'Cache-Control': 'private, no-store',
  };
  if (documents.length === 1) {
    const object = await c.env.FILES.get(documents[0].r2Key);
    if (!object) throw notFound('Document file');
    return c.body(object.body, 200, { ...headers, 'Content-Length': String(object.size) }) as never;
  }
  const files = await Promise.all(
    documents.map(async (d) => {
      const object = await c.env.FILES.get(d.r2Key);
      if (!object) throw notFound('Document file');
      return new Uint8Array(await object.arrayBuffer());
    }),
  );
  // pdf-lib loads on first use (decisions.md › Cold start).
  const { bundlePdfs } = await import('../../services/pdf/bundle');
  const bundle = await bundlePdfs(files, template.name);
  return c.body(bundle.buffer as ArrayBuffer, 200, { ...headers, 'Content-Length': String(bundle.byteLength) }) as never;
};

export const cloneTemplate: AppRouteHandler<typeof routes.cloneTemplate> = async (c) => {
  const db = c.var.scope.db;
  const source = await loadTemplate(c, db, c.req.valid('param').id);
  const { template } = await creating.cloneTemplate(creatingContext(c, db, 'template.clone'), source, c.req.valid('json') ?? {});
  recordedCreate(c, 'template.clone', template);
  return c.json(await templateJson(c, db, template), 201);
};

export const mergeTemplates: AppRouteHandler<typeof routes.mergeTemplates> = async (c) => {
  const { template_ids: ids, ...options } = c.req.valid('json');
  const db = c.var.scope.db;
  const { template } = await creating.mergeTemplates(creatingContext(c, db, 'template.merge'), ids.map(String), options);
  recordedCreate(c, 'template.merge', template);
  return c.json(await templateJson(c, db, template), 201);
};
