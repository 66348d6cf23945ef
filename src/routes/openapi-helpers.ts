// Declares tenant API routes once: zod schemas, authorization and every response, 4xx included.
import { createRoute, z, type OpenAPIHonoOptions, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../app-env';
import { authorize, type AuthorizeOptions } from '../middleware/authorize';
import { idempotency } from '../middleware/idempotency';
import { requireJsonBody } from '../middleware/json-body';
import { validationError } from '../lib/validation';
import { ApiError } from '../lib/errors';

/** Every OpenAPIHono's validation hook: a failed schema is a 400 or 422 with sentences (spec › Errors). */
export const throwValidationError: NonNullable<OpenAPIHonoOptions<AppEnv>['defaultHook']> = (result) => {
  // `data` is the input the validator was given: sentences can name list elements by their name.
  if (!result.success) throw validationError(result.error, (result as { data?: unknown }).data);
};

export const errorSchema = z
  .object({
    error: z.union([z.string(), z.array(z.string())]).openapi({ description: 'A sentence, or several for several problems.' }),
    message: z.string().optional().openapi({ description: 'Authentication failures: what to do about it.' }),
    status: z.number().int().optional().openapi({ description: 'Authentication failures: the HTTP status.' }),
    upgrade_url: z.string().optional().openapi({ description: 'Plan-limit 403s: where to upgrade.' }),
    code: z.string().optional().openapi({ description: 'Machine-readable reason where one exists.' }),
    reference: z.string().optional().openapi({ description: '500s: the request id to quote to support.' }),
    erased_at: z.string().optional().openapi({ description: '410s of an erased submission: when it was erased.', format: 'date-time' }),
  })
  .openapi('Error');

const ERROR_DESCRIPTIONS = {
  400: 'Malformed JSON (including a body that is not UTF-8, a lone surrogate escape, or nesting deeper than 64 levels), wrong content type, a missing required parameter or a value of the wrong type.',
  401: 'Token missing, not in the token format, unknown, revoked or expired.',
  403: 'Insufficient scope, IP not allowed, not an admin, or the plan does not include this or has no room for it (a counted limit or its storage: `code` "plan_limit_reached" with `upgrade_url`).',
  404: 'No such resource in this account.',
  410: 'The submission was erased (retention or a permanent delete): `erased_at` says when; its audit trail and document hashes are kept.',
  409: 'Conflicts with the current state, or an idempotent request with this key is still running.',
  422: 'Validation failed; the body says why in sentences.',
  413: 'The request body is larger than this operation accepts.',
  429: 'Rate limit exceeded (per token, failed authentications per client address, or the account’s Browser Rendering launches for HTML and DOCX documents); see Retry-After.',
  503: 'A service this operation needs (Browser Rendering for HTML templates and thumbnails) could not be reached; retry later.',
  502: 'A service this operation depends on (e.g. the payment processor, or the DNS resolver that checks webhook hosts) failed; retry later.',
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

export function errorResponses(statuses: readonly ErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: errorSchema } } },
    ]),
  );
}

export const tenantSecurity = [{ ApiToken: [] }, { BearerToken: [] }];

type TenantRouteOptions = AuthorizeOptions & {
  /** Error statuses beyond those derived from the route's shape. */
  errors?: readonly ErrorStatus[];
  /**
   * A create or send operation: accepts `Idempotency-Key` (spec › Limits › Idempotency). The
   * idempotency middleware reads this flag; every create/send route sets it.
   */
  idempotent?: boolean;
  /** Refuses a larger body with 413 before anything reads it (Content-Length, or counted as it streams). */
  maxBodyBytes?: number;
};

/** The request header idempotent routes document; the idempotency middleware enforces it. */
export const idempotencyHeaderSchema = z.object({
  'idempotency-key': z
    .string()
    .max(255)
    .optional()
    .openapi({
      // Lower-case like every header Hono hands the validator; header names are case-insensitive.
      param: { name: 'idempotency-key', in: 'header' },
      description:
        'Any unique string up to 255 characters (a UUID is ideal). Retrying with the same key and body within 24 h ' +
        'replays the first response with `Idempotency-Replayed: true`; a different body is refused (422); a retry while ' +
        'the first is still running gets 409. Keys are private to the calling token.',
      example: '5b0f6a3e-9a4c-4bb4-8a43-3f1d0c1e9f12',
    }),
});

/**
 * createRoute plus what every tenant route shares: the authorize middleware, the security schemes,
 * a JSON content-type check for JSON bodies, and the error responses the route can give.
 */
export function tenantRoute<const R extends RouteConfig>(options: TenantRouteOptions, route: R): R {
  // Routes that take several body types (JSON or multipart uploads) check the type themselves; an
  // optional JSON body may also be left out entirely.
  const bodyTypes = Object.keys(route.request?.body?.content ?? {});
  const hasJsonBody = bodyTypes.length === 1 && bodyTypes[0] === 'application/json';
  const takesInput = Boolean(route.request?.body || route.request?.query || route.request?.params);
  const statuses = new Set<ErrorStatus>([401, 403, 429]);
  if (takesInput) statuses.add(400).add(422);
  if (route.path.includes('{')) statuses.add(404);
  for (const status of options.errors ?? []) statuses.add(status);
  if (options.idempotent) statuses.add(409).add(422);
  const middleware: MiddlewareHandler<AppEnv>[] = [authorize(options)];
  const { maxBodyBytes } = options;
  if (maxBodyBytes) {
    statuses.add(413);
    middleware.push(
      bodyLimit({
        maxSize: maxBodyBytes,
        onError: () => {
          throw new ApiError(413, `The request body is larger than ${maxBodyBytes / 1024 / 1024} MB, the limit for this operation.`);
        },
      }),
    );
  }
  if (hasJsonBody) middleware.push(requireJsonBody({ allowEmpty: !route.request?.body?.required }));
  // After authorization: a refused caller never claims a key. Before validation: a replay answers
  // exactly as the first attempt did, whatever the validators would say today.
  if (options.idempotent) middleware.push(idempotency());
  const request = options.idempotent && !route.request?.headers ? { ...route.request, headers: idempotencyHeaderSchema } : route.request;
  const scopeNote = `Scopes: ${options.scopes.map((s) => `\`${s}\``).join(' or ')}${options.admin ? ' · account admins only' : ''}${options.feature ? ` · plan feature \`${options.feature}\`` : ''}.`;
  return createRoute({
    ...route,
    ...(request ? { request } : {}),
    description: route.description ? `${route.description}\n\n${scopeNote}` : scopeNote,
    security: tenantSecurity,
    middleware,
    responses: { ...errorResponses([...statuses].sort()), ...route.responses },
  }) as R;
}

/** `{id}` path parameter of integer-keyed resources. */
export const idParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'must be an integer id' })
    .int('must be an integer id')
    .positive('must be a positive integer id')
    .openapi({ param: { name: 'id', in: 'path' }, example: 1 }),
});
