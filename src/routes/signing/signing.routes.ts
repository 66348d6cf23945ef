// Route declarations of the signing page's JSON routes under /s (spec › What the service does; Submitter
// states, rules 1–4): zod schemas, body caps and every response, from which both the validation and
// the "Signing page" entries of the OpenAPI document come. The slug is the only credential here.
import { createRoute, z, type OpenAPIHonoOptions, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { requireJsonBody } from '../../middleware/json-body';
import { ApiError, type SignerSentence } from '../../lib/errors';
import { errorSchema, throwValidationError } from '../openapi-helpers';
import { PHONE_CHANNELS } from '../../shared/link-channel';
import {
  ATTACHMENT_BODY_BYTES,
  IP_RATE_LIMIT,
  SLUG_RATE_LIMIT,
  SMALL_BODY_BYTES,
  VALUES_BODY_BYTES,
  describeBytes,
  signingBodyLimit,
} from './signing.limits';

/** Where the router is mounted: the declarations below are relative to it, the OpenAPI document is not. */
export const SIGNING_PREFIX = '/s';

const SIGNING_ERRORS = {
  400: 'Malformed body: not sent as application/json, not JSON, not UTF-8, nested deeper than 64 levels, not a JSON object, or a member missing or of the wrong type.',
  403: 'Another origin, or the email or phone code is required first.',
  404: 'No signing link with this slug.',
  409: 'The submission changed while this request was processed; reload and try again.',
  413: `The body is over the route's cap: ${describeBytes(VALUES_BODY_BYTES)} for values and submit, ${describeBytes(SMALL_BODY_BYTES)} for the other JSON routes, ${describeBytes(ATTACHMENT_BODY_BYTES)} for uploads (docs/limits.md).`,
  415: 'The file is not an accepted type.',
  422: 'A sentence saying what is wrong (field rules, state rules).',
  502: 'The payment processor could not be reached or refused the request; try again.',
  429: `Over ${SLUG_RATE_LIMIT} requests a minute for this link, or ${IP_RATE_LIMIT} from this address (docs/limits.md); Retry-After says when to retry.`,
} as const;

type SigningError = keyof typeof SIGNING_ERRORS;

type SigningRouteOptions = {
  /** The body cap of this route (signing.limits.ts), enforced before anything reads the body. */
  bodyBytes: number;
  /** Error statuses beyond 400, 403, 404, 413 and 422, which every signing route can give. */
  errors?: readonly SigningError[];
  /** Sentences replacing the shared description of a status for this route. */
  describe?: Partial<Record<SigningError, string>>;
};

// Retry-After on the 429s, like every document header, is added when the document is built (openapi-headers.ts).
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorSchema } } });

/**
 * createRoute plus what every signing route shares: no API token, the service root as its server,
 * the body cap (413) and, for a JSON body, the JSON checks the page always had, and the error
 * responses. Rate limits, the same-origin check and the outbox drain apply to the whole router
 * (signing.index.ts), so to every route declared here too.
 */
export function signingRoute<const R extends RouteConfig>(options: SigningRouteOptions, route: R): R {
  const bodyTypes = Object.keys(route.request?.body?.content ?? {});
  const middleware: MiddlewareHandler<AppEnv>[] = [signingBodyLimit(options.bodyBytes)];
  if (bodyTypes.includes('application/json')) middleware.push(signingJsonBody());
  const statuses = new Set<SigningError>([400, 403, 404, 413, 422, 429, ...(options.errors ?? [])]);
  const errors = Object.fromEntries(
    [...statuses].sort().map((status) => [status, errorResponse(options.describe?.[status] ?? SIGNING_ERRORS[status])]),
  );
  return createRoute({
    ...route,
    tags: ['Signing page'],
    description: `${route.description} Called by the signing page itself: no API token (the slug is the credential); requests from another origin are refused (403).`,
    servers: [{ url: '/', description: 'Signing pages are served at the service root, not under /api.' }],
    security: [],
    middleware,
    responses: { ...errors, ...route.responses },
  }) as R;
}

/** What a signer reads for a body the page should never send (issue 31 › 1): the page is out of date or the request was damaged. */
const MALFORMED: SignerSentence = { key: 'signer_error.body_malformed' };

/**
 * The JSON checks the page always had (not JSON, not sent as JSON, not UTF-8, too deep): their 400s
 * carry the signer's sentence, answered in the visitor's language (src/routes/signer-refusals.tsx).
 */
function signingJsonBody(): MiddlewareHandler<AppEnv> {
  const check = requireJsonBody({ refuseMalformed: true });
  return async function signingJsonBodyMiddleware(c, next) {
    let checked = false;
    try {
      await check(c, async () => {
        checked = true;
        await next();
      });
    } catch (error) {
      // Only the checks' own refusals: what the route throws after them is worded where it is thrown.
      if (!checked && error instanceof ApiError && error.status === 400) error.signer ??= [MALFORMED];
      throw error;
    }
  };
}

/**
 * The signing router's validation hook: a body that is not even a JSON object is malformed as above;
 * a member's problem keeps its sentence naming the member.
 */
export const signingValidationError: NonNullable<OpenAPIHonoOptions<AppEnv>['defaultHook']> = (result, c) => {
  try {
    throwValidationError(result, c);
  } catch (error) {
    if (!result.success && error instanceof ApiError && result.error.issues.every((issue) => issue.path.length === 0))
      error.signer ??= [MALFORMED];
    throw error;
  }
};

const params = z.object({
  slug: z.string().openapi({
    param: { name: 'slug', in: 'path' },
    description: "The submitter's signing slug (from the signing_url).",
    example: 'Xk3j9Qp2LmN8rT5w',
  }),
});

const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const ok = <T extends z.ZodType>(schema: T, description = 'Done.') => ({
  200: { description, content: { 'application/json': { schema } } },
});

/** The body as a whole: anything but a JSON object is the sentence the page always answered. */
const body = <S extends z.core.$ZodLooseShape>(shape: S) => z.object(shape, { error: 'The request body must be a JSON object' });
/** A required string member: a missing or null one "is required" (400), another type "must be a string" (400). */
const required = () => z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'is required' : undefined) });
/** An optional string member: missing and null both mean none. */
const optional = () => z.string().nullish();
/** Field uuid → value; a missing or null `values` is none. */
const values = z
  .record(z.string(), z.unknown(), { error: 'must be an object of field uuid to value' })
  .nullish()
  .openapi({ description: 'Field uuid → value.' });
const person = z.object({ email: z.string().openapi({ example: 'deputy@example.com' }), name: z.string() });

/** A small JSON body that changes the submitter, so may meet a concurrent change (409). */
const changing = { bodyBytes: SMALL_BODY_BYTES, errors: [409] } as const;

export const postOpen = signingRoute(changing, {
  method: 'post',
  path: '/{slug}/open',
  summary: 'Open the form',
  description:
    'Sent by the page once the form is on screen: moves the submitter to opened once, fills date-now fields and fires form.viewed and submitter.opened. Fetching the page itself records nothing, so email link scanners do not mark signers opened. Takes no body (one sent is ignored).',
  request: { params },
  responses: ok(z.object({ status: z.string(), opened_at: z.string().nullable() })),
});

const textLine = z.object({
  text: z.string(),
  x: z.number().openapi({ description: 'Left edge, as a fraction of the page width.' }),
  y: z.number().openapi({ description: 'Top edge, as a fraction of the page height.' }),
  w: z.number().openapi({ description: 'Width, as a fraction of the page width.' }),
  h: z.number().openapi({ description: 'Height, as a fraction of the page height.' }),
});

export const getDocumentText = signingRoute(
  { bodyBytes: SMALL_BODY_BYTES },
  {
    method: 'get',
    path: '/{slug}/documents/{document_uuid}/text',
    summary: "A document's text layer",
    description:
      "Each page's size in points and its lines of text in reading order with their boxes, which the page lays under each page image so a screen reader reads the document. Read from the PDF once per template document and kept; a submission's own filled copy (DOCX) is read each time and not kept. On the form and completed pages only (404 otherwise); an unreadable file gives no pages.",
    request: {
      params: params.extend({
        document_uuid: z.string().openapi({ param: { name: 'document_uuid', in: 'path' }, description: 'The document uuid.' }),
      }),
    },
    responses: ok(z.object({ pages: z.array(z.object({ width: z.number(), height: z.number(), lines: z.array(textLine) })) })),
  },
);

export const putValues = signingRoute(
  { bodyBytes: VALUES_BODY_BYTES, errors: [409] },
  {
    method: 'put',
    path: '/{slug}/values',
    summary: 'Save field values (autosave)',
    description: 'Checks each value by the field rules; fires field.updated per changed field and form.started on the first change.',
    request: { params, body: jsonBody(body({ values })) },
    responses: ok(z.object({ values: z.record(z.string(), z.unknown()).openapi({ description: 'Field uuid → value.' }) })),
  },
);

export const postSubmit = signingRoute(
  {
    bodyBytes: VALUES_BODY_BYTES,
    errors: [409, 502],
    describe: { 502: 'qes: the signature provider could not be reached or refused; the sentence says what to do. Nothing was signed.' },
  },
  {
    method: 'post',
    path: '/{slug}/submit',
    summary: 'Submit the form',
    description:
      'Saves the last values and completes the submitter (form.completed, submitter.completed); invites the next signer or completes the submission. At signature level qes the submitter is not completed yet: the answer carries `authorization_url`, the CSC provider page where the signer authorizes the signature; the provider sends them back to GET /s/{slug}/qes/callback, which signs, completes and shows the signing page, or shows a retry page (GET /s/{slug}/qes/retry starts a new authorization).',
    request: { params, body: jsonBody(body({ values })) },
    responses: ok(
      z.object({
        status: z.string(),
        submission_status: z.string(),
        redirect_url: z.string(),
        authorization_url: z
          .string()
          .optional()
          .openapi({ description: 'qes only: where to send the browser to authorize the signature.' }),
      }),
    ),
  },
);

export const postConsent = signingRoute(changing, {
  method: 'post',
  path: '/{slug}/consent',
  summary: 'Accept the electronic records disclosure',
  description:
    'The signer accepts the disclosure the page shows before the first signature (ESIGN/UETA: paper copies, withdrawal, hardware and software, contact details). Recorded once per signer: a `disclosure_accepted` trail entry with the version, its SHA-256, the time, address and user agent, printed on the sealed audit trail. Submitting is refused (422) until it is accepted. The disclosure is versioned per language: `version` must be the one the page showed, in `language` (the page’s language; default the signer’s), and the trail records that language with the version and hash.',
  request: {
    params,
    body: jsonBody(
      body({ version: required(), language: optional().openapi({ description: 'The language the disclosure was shown in.' }) }),
    ),
  },
  responses: ok(z.object({ version: z.string(), language: z.string(), accepted_at: z.string() })),
});

export const postDecline = signingRoute(changing, {
  method: 'post',
  path: '/{slug}/decline',
  summary: 'Decline with a reason',
  description: 'Fires form.declined; the submission can no longer complete. The reason is required, at most 1,000 characters.',
  request: { params, body: jsonBody(body({ reason: optional() })) },
  responses: ok(z.object({ status: z.literal('declined') })),
});

export const postDelegate = signingRoute(changing, {
  method: 'post',
  path: '/{slug}/delegate',
  summary: 'Delegate to someone else (rule 1)',
  description:
    'Allowed while waiting, sent or opened. The new person gets a fresh link and invitation; the old link stops working; form.delegated carries delegated_to. A form is delegated at most 5 times along its chain (422 after).',
  request: { params, body: jsonBody(body({ email: required().openapi({ example: 'deputy@example.com' }), name: optional() })) },
  responses: ok(z.object({ status: z.string(), delegated_to: person })),
});

export const postInviteWitness = signingRoute(changing, {
  method: 'post',
  path: '/{slug}/invite_witness',
  summary: 'Invite a witness (rule 2)',
  description:
    "After completing: needs a template role named Witness and an email other than the signer's; the submission completes only after the witness signs. A signer invites a witness at most 5 times (422 after).",
  request: { params, body: jsonBody(body({ email: required().openapi({ example: 'witness@example.com' }), name: optional() })) },
  responses: ok(z.object({ witness: person.extend({ status: z.string() }) })),
});

export const postAttachment = signingRoute(
  {
    bodyBytes: ATTACHMENT_BODY_BYTES,
    errors: [415],
    describe: {
      403: 'Another origin, the email or phone code is required first, or the account has no storage left for the file ("This account cannot store more files right now; contact the sender.").',
      413: `The file is over its limit, or the body over ${describeBytes(ATTACHMENT_BODY_BYTES)}.`,
    },
  },
  {
    method: 'post',
    path: '/{slug}/attachments',
    summary: 'Upload an image or file into a field',
    description:
      "multipart/form-data with `field_uuid` and `file`. PNG/JPEG up to 512 KB for pictures, PDF/PNG/JPEG up to 10 MB for file fields, judged by content. A picture comes back as the field's data URL value and is not stored; a file is stored, counts against the account's storage, and is deleted after 24 hours unless a form that is completed (or still being filled) names it.",
    request: {
      params,
      // A plain schema, not zod: the handler reads the parts itself (its sentences name the field), so no validator runs here.
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { field_uuid: { type: 'string' }, file: { type: 'string', format: 'binary' } },
              required: ['field_uuid', 'file'],
            },
          },
        },
      },
    },
    responses: {
      201: {
        description: 'Stored.',
        content: {
          'application/json': {
            schema: z.object({ attachment_uuid: z.string(), content_type: z.string(), byte_size: z.number(), value: z.string() }),
          },
        },
      },
    },
  },
);

export const postSendCode = signingRoute(
  {
    bodyBytes: SMALL_BODY_BYTES,
    describe: { 429: "Too many codes sent in the last hour (at most 5), or the route's rate limit; Retry-After says when to retry." },
  },
  {
    method: 'post',
    path: '/{slug}/verification',
    summary: 'Send a verification code (email, SMS or WhatsApp)',
    description:
      'When the template has require_email_2fa, or the template or submitter require_phone_2fa: a 6-digit code valid 10 minutes, emailed, or sent to the phone by SMS (by WhatsApp for a submitter with send_whatsapp; the phone code when both are asked for); at most 5 codes an hour. Takes no body (one sent is ignored).',
    request: { params },
    responses: ok(z.object({ sent: z.boolean() })),
  },
);

export const postLinkOpened = signingRoute(
  { bodyBytes: SMALL_BODY_BYTES },
  {
    method: 'post',
    path: '/{slug}/link_opened',
    summary: 'Record that the signer came from a text message',
    description:
      'Sent by the page when its address carries `?via=sms` or `?via=whatsapp`, as the links in SMS and WhatsApp messages do: a `link_clicked` entry with the channel in the audit trail (at most 20 per signer; past that `recorded` is false). Fetching the page records nothing, since link previews fetch links too. Needs no code: the click comes before it.',
    request: { params, body: jsonBody(body({ channel: z.enum(PHONE_CHANNELS) })) },
    responses: ok(z.object({ recorded: z.boolean() })),
  },
);

export const postCheckCode = signingRoute(
  { bodyBytes: SMALL_BODY_BYTES, describe: { 429: "The code's attempts are used up (request a new one), or the route's rate limit." } },
  {
    method: 'post',
    path: '/{slug}/verification/check',
    summary: 'Check a verification code',
    description:
      "A right code sets an HttpOnly session cookie for this link. Each check, right or wrong, takes one of the code's 5 attempts before it is compared, so concurrent guesses count too.",
    request: { params, body: jsonBody(body({ code: required() })) },
    responses: ok(z.object({ verified: z.boolean() })),
  },
);

export const postPaymentCheckout = signingRoute(
  { bodyBytes: SMALL_BODY_BYTES, errors: [502] },
  {
    method: 'post',
    path: '/{slug}/payments/{field_uuid}/checkout',
    summary: 'Start paying a payment field',
    description:
      'Starts a Stripe Checkout (mode payment) with the account’s own Stripe key for one of the signer’s payment fields, for its amount now ' +
      '(fixed, or its formula over the signer’s values), and returns its URL for the page to go to. Stripe returns the signer to the page ' +
      '(`?payment=success` or `?payment=cancelled`); the account’s Stripe webhook marks the field paid, and only from this session, for this ' +
      'amount — an earlier session paid later does not count. 422 when the field is already paid for the amount it comes to now (a paid field ' +
      'whose amount changed since takes a new checkout for the new amount), ' +
      'has no amount yet, or the account has no Stripe credentials. Takes no body.',
    request: {
      params: params.extend({ field_uuid: z.string().openapi({ param: { name: 'field_uuid', in: 'path' }, example: '2f1c…' }) }),
    },
    responses: ok(z.object({ url: z.string().openapi({ description: 'The Stripe Checkout page.' }) })),
  },
);
