// Route declarations for templates (spec › Create template from PDF, Other endpoints named; decisions.md › Lifecycles).
import { z } from '@hono/zod-openapi';
import { pagePaginationSchema } from '../../lib/pagination';
import { errorSchema, tenantRoute } from '../openapi-helpers';
import {
  copyTemplateBody,
  documentSchema,
  mergeTemplatesBody,
  permanentlyQuery,
  templateDocumentParams,
  templateListQuery,
  templateParams,
  templateSchema,
  updateTemplateBody,
  versionSchema,
} from './templates.schemas';

const tags = ['Templates'];
const templateResponse = (description: string) => ({ description, content: { 'application/json': { schema: templateSchema } } });
const tooLarge = { 413: { description: 'The request body is over 50 MB.', content: { 'application/json': { schema: errorSchema } } } };
const pdf = { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } };
const docx = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { schema: z.string().openapi({ format: 'binary' }) },
};

/**
 * Upload bodies are read by the handler (size cap first, then JSON or multipart), so they are declared
 * by reference: the documentation shows them, and no validator parses the body before the cap.
 */
const uploadBody = (component: string) => ({
  required: true,
  content: {
    'application/json': { schema: { $ref: `#/components/schemas/${component}Json` } },
    'multipart/form-data': { schema: { $ref: `#/components/schemas/${component}Multipart` } },
  },
});

const createDescription =
  'Files are PDFs (20 MB each, 10 documents and 500 pages per template, 50 MB per request). JSON bodies carry ' +
  'each file as base64 or a data URL; multipart bodies use file parts (`documents[0][file]`, or `file`/`files[]`) ' +
  'and JSON or bracketed keys for the rest. Fields reference roles by `role` name or `submitter_uuid`. ' +
  'A PDF\u2019s own AcroForm fields (text, checkbox, radio, dropdown, signature) are imported as fields with their names, ' +
  'places, options and required flags, and the form is removed from the stored file. Text tags in its text, ' +
  '`{{Field Name;role=Signer 1;type=date;required=true}}` (options `name`, `type`, `role`, `required`, `readonly`, ' +
  '`default`/`value`, `options=a,b`, `width`, `height` in points, `format`), become fields at the tag\u2019s place and ' +
  'the tag is hidden; a bad tag is a 422 naming it and its page. Imported fields follow the fields given for the document.';

export const createTemplateFromPdf = tenantRoute(
  { scopes: ['templates:write'], idempotent: true },
  {
    method: 'post',
    path: '/templates/pdf',
    tags,
    summary: 'Create a template from PDF files',
    description: createDescription,
    request: { body: uploadBody('TemplateCreate') },
    responses: { 201: templateResponse('The new template.'), ...tooLarge },
  },
);

export const createTemplateFromDocx = tenantRoute(
  { scopes: ['templates:write'], idempotent: true, errors: [503] },
  {
    method: 'post',
    path: '/templates/docx',
    tags,
    summary: 'Create a template from DOCX files',
    description:
      `${createDescription} Each DOCX may hold \`[[variable]]\` placeholders and \`[[if:variable]]…[[else]]…[[end]]\` blocks ` +
      '(nestable); it is printed to PDF (variables shown as their `[[name]]` text, conditions false) and fields are placed on that PDF. ' +
      'The original DOCX is kept. PDF files may be mixed in.',
    request: { body: uploadBody('TemplateCreate') },
    responses: { 201: templateResponse('The new template.'), ...tooLarge },
  },
);

export const createTemplate = tenantRoute(
  { scopes: ['templates:write'], idempotent: true, errors: [503] },
  {
    method: 'post',
    path: '/templates',
    tags,
    summary: 'Create a template (same body as /templates/pdf; documents are required)',
    description: `${createDescription} A body without documents is refused with 422.`,
    request: { body: uploadBody('TemplateCreate') },
    responses: { 201: templateResponse('The new template.'), ...tooLarge },
  },
);

export const listTemplates = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates',
    tags,
    summary: 'List templates, newest first (archived ones only with archived=true)',
    request: { query: templateListQuery },
    responses: {
      200: {
        description: 'A page of templates.',
        content: { 'application/json': { schema: z.object({ data: z.array(templateSchema), pagination: pagePaginationSchema }) } },
      },
    },
  },
);

export const getTemplate = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}',
    tags,
    summary: 'Get a template',
    request: { params: templateParams },
    responses: { 200: templateResponse('The template.') },
  },
);

export const updateTemplate = tenantRoute(
  { scopes: ['templates:write'], errors: [409] },
  {
    method: 'put',
    path: '/templates/{id}',
    tags,
    summary: 'Update a template; every update stores a version',
    description: '`fields` (or `schema`) replaces the field list; `preferences` keys merge, null removes one; `archived: false` restores.',
    request: { params: templateParams, body: { required: true, content: { 'application/json': { schema: updateTemplateBody } } } },
    responses: { 200: templateResponse('The updated template.') },
  },
);

export const deleteTemplate = tenantRoute(
  { scopes: ['templates:write'], errors: [409] },
  {
    method: 'delete',
    path: '/templates/{id}',
    tags,
    summary: 'Archive a template, or delete it and its files with permanently=true',
    request: { params: templateParams, query: permanentlyQuery },
    responses: {
      200: templateResponse('The archived template.'),
      204: { description: 'Deleted permanently.' },
    },
  },
);

export const listTemplateVersions = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}/versions',
    tags,
    summary: 'The template’s versions, newest first',
    request: { params: templateParams, query: templateListQuery.pick({ page: true, per_page: true }) },
    responses: {
      200: {
        description: 'A page of versions.',
        content: { 'application/json': { schema: z.object({ data: z.array(versionSchema), pagination: pagePaginationSchema }) } },
      },
    },
  },
);

export const listTemplateDocuments = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}/documents',
    tags,
    summary: 'The template’s documents with their download URLs',
    request: { params: templateParams },
    responses: {
      200: {
        description: 'The documents, in order.',
        content: { 'application/json': { schema: z.object({ data: z.array(documentSchema) }) } },
      },
    },
  },
);

export const changeTemplateDocuments = tenantRoute(
  { scopes: ['templates:write'], errors: [409, 503] },
  {
    method: 'put',
    path: '/templates/{id}/documents',
    tags,
    summary: 'Add, replace, rename or remove documents',
    description:
      'Each entry names an existing document by `uuid` (or 0-based `position` with `replace`/`remove`) or, without one, adds a file. ' +
      'A replaced document keeps its uuid and its fields; areas on removed documents are dropped. ' +
      'Files may be PDF or DOCX (printed to PDF, the DOCX kept for per-submission filling, as on creation); ' +
      "a PDF's text tags and AcroForm fields become fields on its document.",
    request: { params: templateParams, body: uploadBody('TemplateDocumentsChange') },
    responses: { 200: templateResponse('The template with its new documents.'), ...tooLarge },
  },
);

export const downloadTemplateDocument = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}/documents/{document_id}',
    tags,
    summary: 'Download one document (streamed from storage)',
    request: { params: templateDocumentParams },
    responses: { 200: { description: 'The PDF.', content: pdf } },
  },
);

export const downloadTemplateDocumentOriginal = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}/documents/{document_id}/original',
    tags,
    summary: 'Download the DOCX a document was made from',
    description:
      'A document uploaded as DOCX is printed to PDF for the template and its original is kept (spec › Template document), ' +
      'the file each submission fills with its variables. This streams that original as it was uploaded. ' +
      'A document uploaded as PDF or HTML has no other original: 404 with a sentence, and `GET …/documents/{document_id}` is the file.',
    request: { params: templateDocumentParams },
    responses: { 200: { description: 'The DOCX as uploaded.', content: docx } },
  },
);

export const downloadTemplate = tenantRoute(
  { scopes: ['templates:read'] },
  {
    method: 'get',
    path: '/templates/{id}/download',
    tags,
    summary: 'Download every document as one PDF',
    request: { params: templateParams },
    responses: { 200: { description: 'The PDF bundle.', content: pdf } },
  },
);

export const cloneTemplate = tenantRoute(
  { scopes: ['templates:write'], idempotent: true },
  {
    method: 'post',
    path: '/templates/{id}/clone',
    tags,
    summary: 'Copy a template, its files included',
    request: { params: templateParams, body: { required: false, content: { 'application/json': { schema: copyTemplateBody } } } },
    responses: { 201: templateResponse('The copy.') },
  },
);

export const mergeTemplates = tenantRoute(
  { scopes: ['templates:write'], idempotent: true },
  {
    method: 'post',
    path: '/templates/merge',
    tags,
    summary: 'Merge templates into a new one; roles with the same name become one',
    request: { body: { required: true, content: { 'application/json': { schema: mergeTemplatesBody } } } },
    responses: { 201: templateResponse('The merged template.') },
  },
);
