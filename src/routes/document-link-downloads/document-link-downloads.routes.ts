// Route declaration for opening a public document link (spec › Public document links).
import { createRoute, z } from '@hono/zod-openapi';
import { errorSchema } from '../openapi-helpers';

const errorContent = { 'application/json': { schema: errorSchema }, 'text/html': { schema: z.string() } };

export const openDocumentLink = createRoute({
  method: 'get',
  path: '/{token}',
  tags: ['Public document links'],
  summary: 'Download the signed PDF a public link points to',
  description:
    'No credentials: the token is the authority. Answers the PDF as an attachment with an ETag, and honours a single ' +
    '`Range` (206 with Content-Range; 416 when it lies past the end; several ranges at once answer the whole file). HEAD ' +
    'answers the same headers. Each GET that starts at byte 0 is one event in the account’s audit trail. A revoked or ' +
    'expired link answers 410 — an HTML page for browsers (`Accept: text/html`), JSON `{error}` otherwise; a token this ' +
    'service did not sign answers 404. Refusals are worded in the reader’s language: `lang`, the account’s locale, then ' +
    '`Accept-Language`, else English.',
  security: [],
  request: { params: z.object({ token: z.string().openapi({ param: { name: 'token', in: 'path' } }) }) },
  responses: {
    200: { description: 'The PDF.', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
    206: {
      description: 'The requested byte range of the PDF.',
      content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    404: { description: 'No such link.', content: errorContent },
    409: { description: 'The document is still being sealed; retry after `Retry-After` seconds.', content: errorContent },
    410: { description: 'The link has expired or was revoked, or the submission’s documents were erased.', content: errorContent },
    416: {
      description: 'The range lies outside the file; `Content-Range: bytes */<size>`.',
      content: { 'application/json': { schema: errorSchema } },
    },
    429: {
      description: 'Too many requests from this address; retry after `Retry-After` seconds. A page for browsers, JSON otherwise.',
      content: errorContent,
    },
  },
});
