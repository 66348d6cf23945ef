// The MCP server's tools (issue 32 › 1; docs/mcp.md › Tools): each names the scopes it requires and the
// REST request it makes. Arguments are the REST bodies' own zod declarations, so the tool's JSON Schema,
// its validation and the API's are one thing; ids are `template_id`, `submission_id`, `submitter_id`.
import { z } from '@hono/zod-openapi';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toBase64 } from '../../lib/base64';
import { unprocessable } from '../../lib/errors';
import type { Scope } from '../../lib/scopes';
import { idParamsSchema } from '../openapi-helpers';
import { submissionListQuery, createSubmissionBody } from '../submissions/submissions.schemas';
import { htmlTemplateBody } from '../templates/html-templates.routes';
import { createTemplateBody, templateListQuery, templateParams } from '../templates/templates.schemas';

/** The REST request a tool call becomes: a path under /api, with a JSON body or a query. */
export type ApiCall = { method: 'GET' | 'POST'; path: string; body?: unknown; query?: Record<string, unknown> };

export type ToolEnvironment = {
  /** create_template's `url`: the file's bytes, fetched under the webhook rules (services/mcp/remote-document.ts). */
  fetchDocument(url: string): Promise<Uint8Array>;
};

/** Content a tool adds to its result beyond the REST answer; `get` reads another path of our API as the same tool call. */
export type ExtraContent = (body: Record<string, unknown>, get: (url: string) => Promise<Response>) => Promise<CallToolResult['content']>;

export type ToolDefinition<S extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  /** Every scope the call needs; an empty list means any authenticated caller. */
  scopes(args: z.infer<S>): Scope[];
  request(args: z.infer<S>, env: ToolEnvironment): Promise<ApiCall> | ApiCall;
  readOnly: boolean;
  extraContent?: ExtraContent;
};

function tool<S extends z.ZodObject>(definition: ToolDefinition<S>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

const base64File = z.string().openapi({ description: 'The file as base64, or a data URL (data:application/pdf;base64,…).' });
const templateId = z.object({ template_id: templateParams.shape.id });
const submissionId = z.object({ submission_id: idParamsSchema.shape.id.openapi({ description: 'The submission’s id.' }) });
const submitterId = z.object({ submitter_id: idParamsSchema.shape.id.openapi({ description: 'The submitter’s id.' }) });

const createTemplateInput = createTemplateBody(base64File).extend({
  file: base64File.optional().openapi({ description: 'One PDF or DOCX as base64: the template’s first document.' }),
  url: z
    .string()
    .max(2048)
    .optional()
    .openapi({ description: 'An https URL of a PDF or DOCX to fetch instead of `file` (public hosts only, 20 MB).' }),
  html: htmlTemplateBody.shape.html,
  html_header: htmlTemplateBody.shape.html_header,
  html_footer: htmlTemplateBody.shape.html_footer,
  size: htmlTemplateBody.shape.size,
});

/** A ZIP container (DOCX) starts with PK\x03\x04; everything else is sent as a PDF and judged there. */
function isDocx(base64: string): boolean {
  return base64.replace(/^data:[^,]*,/, '').startsWith('UEsDB');
}

async function createTemplateCall(args: z.infer<typeof createTemplateInput>, env: ToolEnvironment): Promise<ApiCall> {
  const { file, url, html, html_header, html_footer, size, ...body } = args;
  if (html !== undefined) {
    if (file !== undefined || url !== undefined || body.documents?.length || body.fields?.length || body.submitters?.length) {
      throw unprocessable(
        'Give html alone: an HTML template places its fields with tags in the HTML, not with file, url, documents, fields or submitters.',
      );
    }
    const { name, external_id, folder_name, shared } = body;
    return {
      method: 'POST',
      path: '/templates/html',
      body: { name, html, html_header, html_footer, size, external_id, folder_name, shared },
    };
  }
  if (file !== undefined && url !== undefined) throw unprocessable('Give file or url, not both.');
  const first = url !== undefined ? toBase64(await env.fetchDocument(url)) : file;
  const documents = [...(first !== undefined ? [{ name: body.name, file: first }] : []), ...(body.documents ?? [])];
  if (documents.length === 0) throw unprocessable('Give the document: file (base64), url, documents, or html.');
  const kind = documents.some((document) => isDocx(document.file)) ? 'docx' : 'pdf';
  return { method: 'POST', path: `/templates/${kind}`, body: { ...body, documents } };
}

/** Sealed PDFs embedded in one get_signed_documents result, in all; larger sets get links only. */
export const MAX_EMBEDDED_PDF_BYTES = 10 * 1024 * 1024;

/**
 * Each sealed PDF as an embedded MCP resource (its bytes, base64) while they fit in MAX_EMBEDDED_PDF_BYTES,
 * else as a resource link. The bytes matter: a token issued for /mcp alone cannot fetch the /api link.
 */
const sealedDocuments: ExtraContent = async (body, get) => {
  const documents = (body.documents ?? []) as { filename: string; download_url: string; byte_size: number }[];
  const total = documents.reduce((sum, document) => sum + document.byte_size, 0);
  const content: CallToolResult['content'] = [];
  for (const document of documents) {
    const response = total <= MAX_EMBEDDED_PDF_BYTES ? await get(document.download_url) : null;
    if (response?.ok) {
      const blob = toBase64(new Uint8Array(await response.arrayBuffer()));
      content.push({ type: 'resource', resource: { uri: document.download_url, mimeType: 'application/pdf', blob } });
    } else {
      await response?.body?.cancel();
      content.push({ type: 'resource_link', uri: document.download_url, name: document.filename, mimeType: 'application/pdf' });
    }
  }
  return content;
};

const createSubmissionInput = createSubmissionBody.extend({
  send: z
    .boolean()
    .optional()
    .openapi({ description: 'true sends the invitations now (needs submissions:send); otherwise the submission is a draft.' }),
});

export const TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'list_templates',
    title: 'List templates',
    description: 'A page of the account’s templates (GET /api/templates).',
    inputSchema: templateListQuery,
    scopes: () => ['templates:read'],
    request: (query) => ({ method: 'GET', path: '/templates', query }),
    readOnly: true,
  }),
  tool({
    name: 'get_template',
    title: 'Get a template',
    description: 'One template with its roles, fields and documents (GET /api/templates/{id}).',
    inputSchema: templateId,
    scopes: () => ['templates:read'],
    request: ({ template_id }) => ({ method: 'GET', path: `/templates/${encodeURIComponent(template_id)}` }),
    readOnly: true,
  }),
  tool({
    name: 'create_template',
    title: 'Create a template',
    description:
      'A template from a PDF or DOCX (`file` as base64, `url`, or `documents` as in POST /api/templates/pdf and /docx) or from HTML ' +
      '(`html`, as in POST /api/templates/html). Fields and roles as in those bodies; PDF form fields and {{text tags}} are imported.',
    inputSchema: createTemplateInput,
    scopes: () => ['templates:write'],
    request: createTemplateCall,
    readOnly: false,
  }),
  tool({
    name: 'create_submission',
    title: 'Create a submission',
    description: 'A submission of a template for its signers (the body of POST /api/submissions). It stays a draft unless `send` is true.',
    inputSchema: createSubmissionInput,
    scopes: ({ send }) => (send ? ['submissions:write', 'submissions:send'] : ['submissions:write']),
    request: ({ send, ...body }) => ({ method: 'POST', path: '/submissions', body: { ...body, draft: !send } }),
    readOnly: false,
  }),
  tool({
    name: 'send_submission',
    title: 'Send a draft submission',
    description: 'Sends a draft’s invitations (POST /api/submissions/{id}/send).',
    inputSchema: submissionId,
    scopes: () => ['submissions:send'],
    request: ({ submission_id }) => ({ method: 'POST', path: `/submissions/${submission_id}/send` }),
    readOnly: false,
  }),
  tool({
    name: 'remind_submitter',
    title: 'Remind a signer',
    description: 'Sends a signer a reminder (POST /api/submitters/{id}/remind).',
    inputSchema: submitterId,
    scopes: () => ['submissions:remind'],
    request: ({ submitter_id }) => ({ method: 'POST', path: `/submitters/${submitter_id}/remind` }),
    readOnly: false,
  }),
  tool({
    name: 'get_submission',
    title: 'Get a submission',
    description: 'One submission with its signers and their status (GET /api/submissions/{id}).',
    inputSchema: submissionId,
    scopes: () => ['submissions:read'],
    request: ({ submission_id }) => ({ method: 'GET', path: `/submissions/${submission_id}` }),
    readOnly: true,
  }),
  tool({
    name: 'list_submissions',
    title: 'List submissions',
    description: 'A page of submissions, newest first (GET /api/submissions).',
    inputSchema: submissionListQuery,
    scopes: () => ['submissions:read'],
    request: (query) => ({ method: 'GET', path: '/submissions', query }),
    readOnly: true,
  }),
  tool({
    name: 'get_signed_documents',
    title: 'Get the signed documents',
    description:
      'A completed submission’s sealed PDFs (GET /api/submissions/{id}/documents): each as an embedded PDF resource ' +
      `(up to ${MAX_EMBEDDED_PDF_BYTES / 1024 / 1024} MB in all; beyond, a resource link to download with an API token).`,
    inputSchema: submissionId,
    scopes: () => ['submissions:read'],
    request: ({ submission_id }) => ({ method: 'GET', path: `/submissions/${submission_id}/documents` }),
    readOnly: true,
    extraContent: sealedDocuments,
  }),
  tool({
    name: 'verify_pdf',
    title: 'Verify a signed PDF',
    description: 'Checks a PDF’s signatures and whether this account sealed it (POST /api/tools/verify). Any authenticated caller.',
    inputSchema: z.object({ file: base64File }),
    scopes: () => [],
    request: ({ file }) => ({ method: 'POST', path: '/tools/verify', body: { file } }),
    readOnly: true,
  }),
];
