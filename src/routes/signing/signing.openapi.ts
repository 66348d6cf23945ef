// The signing page's JSON routes in the OpenAPI document (they are served at /s, outside /api, and the
// slug in the path is their only credential). The routes themselves live in signing.index.ts.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { errorSchema } from '../openapi-helpers';

const slug = z.object({ slug: z.string().openapi({ description: "The submitter's signing slug (from the signing_url).", example: 'Xk3j9Qp2LmN8rT5w' }) });
const json = (schema: z.ZodTypeAny) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(errorSchema) });
const person = z.object({ email: z.string().openapi({ example: 'deputy@example.com' }), name: z.string().optional() });
const values = z.object({ values: z.record(z.string(), z.unknown()).openapi({ description: 'Field uuid → value.' }) });

type Op = { method: 'get' | 'post' | 'put'; path: string; summary: string; description: string; body?: z.ZodTypeAny; multipart?: boolean; ok: z.ZodTypeAny; extra?: Record<string, string> };

const OPERATIONS: Op[] = [
  { method: 'post', path: '/s/{slug}/open', summary: 'Open the form', description: 'Sent by the page once the form is on screen: moves the submitter to opened once, fills date-now fields and fires form.viewed and submitter.opened. Fetching the page itself records nothing, so email link scanners do not mark signers opened.', body: z.object({}), ok: z.object({ status: z.string(), opened_at: z.string().nullable() }) },
  { method: 'put', path: '/s/{slug}/values', summary: 'Save field values (autosave)', description: 'Checks each value by the field rules; fires field.updated per changed field and form.started on the first change.', body: values, ok: values },
  { method: 'post', path: '/s/{slug}/submit', summary: 'Submit the form', description: 'Saves the last values and completes the submitter (form.completed, submitter.completed); invites the next signer or completes the submission.', body: values, ok: z.object({ status: z.string(), submission_status: z.string(), redirect_url: z.string() }) },
  { method: 'post', path: '/s/{slug}/decline', summary: 'Decline with a reason', description: 'Fires form.declined; the submission can no longer complete.', body: z.object({ reason: z.string() }), ok: z.object({ status: z.literal('declined') }) },
  { method: 'post', path: '/s/{slug}/delegate', summary: 'Delegate to someone else (rule 1)', description: 'Allowed while waiting, sent or opened. The new person gets a fresh link and invitation; the old link stops working; form.delegated carries delegated_to. A form is delegated at most 5 times along its chain (422 after).', body: person, ok: z.object({ status: z.string(), delegated_to: person }) },
  { method: 'post', path: '/s/{slug}/invite_witness', summary: 'Invite a witness (rule 2)', description: 'After completing: needs a template role named Witness and an email other than the signer\'s; the submission completes only after the witness signs. A signer invites a witness at most 5 times (422 after).', body: person, ok: z.object({ witness: person.extend({ status: z.string() }) }) },
  { method: 'post', path: '/s/{slug}/attachments', summary: 'Upload an image or file into a field', description: 'multipart/form-data with `field_uuid` and `file`. PNG/JPEG up to 512 KB for pictures, PDF/PNG/JPEG up to 10 MB for file fields, judged by content. A picture comes back as the field\'s data URL value and is not stored; a file is stored, counts against the account\'s storage, and is deleted after 24 hours unless a form that is completed (or still being filled) names it.', multipart: true, ok: z.object({ attachment_uuid: z.string(), content_type: z.string(), byte_size: z.number(), value: z.string() }), extra: { '403': 'The account has no storage left for the file ("This account cannot store more files right now; contact the sender.").', '413': 'The file is over the limit.', '415': 'The file is not an accepted type.' } },
  { method: 'post', path: '/s/{slug}/verification', summary: 'Email a verification code', description: 'When the template has require_email_2fa: a 6-digit code valid 10 minutes; at most 5 codes an hour.', body: z.object({}), ok: z.object({ sent: z.boolean() }), extra: { '429': 'Too many codes sent in the last hour, or the route\'s rate limit.' } },
  { method: 'post', path: '/s/{slug}/verification/check', summary: 'Check a verification code', description: 'A right code sets an HttpOnly session cookie for this link. Each check, right or wrong, takes one of the code\'s 5 attempts before it is compared, so concurrent guesses count too.', body: z.object({ code: z.string() }), ok: z.object({ verified: z.boolean() }), extra: { '429': 'The code\'s attempts are used up (request a new one), or the route\'s rate limit.' } },
];

export function registerSigningDocs(api: OpenAPIHono<AppEnv>) {
  for (const op of OPERATIONS) {
    api.openAPIRegistry.registerPath({
      method: op.method,
      path: op.path,
      tags: ['Signing page'],
      summary: op.summary,
      description: `${op.description} Called by the signing page itself: no API token (the slug is the credential); requests from another origin are refused (403).`,
      servers: [{ url: '/', description: 'Signing pages are served at the service root, not under /api.' }],
      security: [],
      request: {
        params: slug,
        ...(op.multipart
          ? { body: { content: { 'multipart/form-data': { schema: z.object({ field_uuid: z.string(), file: z.string().openapi({ format: 'binary' }) }) } } } }
          : op.body
            ? { body: json(op.body) }
            : {}),
      },
      responses: {
        200: { description: 'Done.', ...json(op.ok) },
        ...(op.multipart ? { 201: { description: 'Stored.', ...json(op.ok) } } : {}),
        400: error('Malformed body.'),
        403: error('Another origin, or the email code is required first.'),
        404: error('No signing link with this slug.'),
        413: error('The body is over the route\'s cap: 1 MB for values and submit, 16 KB for the other JSON routes, 10 MB for uploads (docs/limits.md).'),
        422: error('A sentence saying what is wrong (field rules, state rules).'),
        429: { description: 'Over 120 requests a minute for this link, or 600 from this address (docs/limits.md); Retry-After says when to retry.', headers: { 'Retry-After': { schema: { type: 'integer' as const }, description: 'Seconds to wait.' } }, ...json(errorSchema) },
        ...Object.fromEntries(Object.entries(op.extra ?? {}).map(([status, text]) => [status, error(text)])),
      },
    });
  }
}
