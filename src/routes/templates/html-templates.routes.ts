// Route and body of POST /api/templates/html (spec › Template document; decisions.md › Documents in).
import { z } from '@hono/zod-openapi';
import { HTML_LIMITS, PAGE_SIZES } from '../../services/rendering/html-to-pdf';
import { UPLOAD_LIMITS } from '../../services/documents/ingest';
import { tenantRoute } from '../openapi-helpers';
import { templateSchema } from './templates.schemas';

const name = z.string().trim().max(255);
const documentHtml = z
  .string()
  .min(1, 'must not be empty')
  .max(HTML_LIMITS.documentChars, `must be at most ${HTML_LIMITS.documentChars.toLocaleString('en')} characters of HTML`);
const headerFooter = z
  .string()
  .max(HTML_LIMITS.headerFooterChars, `must be at most ${HTML_LIMITS.headerFooterChars.toLocaleString('en')} characters of HTML`);

export const htmlTemplateBody = z
  .object({
    name: name.optional().openapi({ description: 'Defaults to the first document’s name.' }),
    html: documentHtml.optional().openapi({ description: 'The document, when there is one; use `documents` for several.' }),
    html_header: headerFooter
      .optional()
      .openapi({ description: 'Printed at the top of every page; `<span class="pageNumber"></span>` and `totalPages` are filled in.' }),
    html_footer: headerFooter.optional().openapi({ description: 'Printed at the bottom of every page, like `html_header`.' }),
    size: z
      .enum(PAGE_SIZES, { error: `must be one of ${PAGE_SIZES.join(', ')}` })
      .optional()
      .openapi({ description: 'Page size; Letter by default.' }),
    documents: z
      .array(z.object({ name: name.optional(), html: documentHtml }))
      .min(1, 'must list at least one document')
      .max(UPLOAD_LIMITS.documentsPerTemplate, `can list at most ${UPLOAD_LIMITS.documentsPerTemplate} documents`)
      .optional(),
    external_id: z.string().max(255).nullable().optional(),
    folder_name: name.optional(),
    shared: z.boolean().optional(),
  })
  .openapi('TemplateCreateHtml');

export const createTemplateFromHtml = tenantRoute(
  { scopes: ['templates:write'], idempotent: true, maxBodyBytes: HTML_LIMITS.requestBytes, errors: [503] },
  {
    method: 'post',
    path: '/templates/html',
    tags: ['Templates'],
    summary: 'Create a template from HTML',
    description:
      'Each HTML document is printed to PDF by a browser with JavaScript disabled and every outside request blocked ' +
      '(images, stylesheets, fonts and frames load only from `data:` URLs), then stored like an uploaded PDF; ' +
      'text tags such as `{{Name;role=Signer 1;type=signature}}` in the printed text become fields, as for PDF uploads. ' +
      `Give \`html\` or \`documents\` (up to ${UPLOAD_LIMITS.documentsPerTemplate}); HTML up to ` +
      `${HTML_LIMITS.documentChars.toLocaleString('en')} characters per document, a body up to ${HTML_LIMITS.requestBytes / 1024 / 1024} MB.`,
    request: { body: { required: true, content: { 'application/json': { schema: htmlTemplateBody } } } },
    responses: { 201: { description: 'The new template.', content: { 'application/json': { schema: templateSchema } } } },
  },
);
