// Route declarations for embedding (spec › Embed token, Embedded template, Embed JWT; docs/embedding.md):
// minting and key rotation take the API's usual credentials; the /embed/* routes take only an embed JWT.
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { requireJsonBody } from '../../middleware/json-body';
import { EMBED_RESOURCE_TYPES, type EmbedResourceType } from '../../services/embed/embed-tokens';
import { errorResponses, idParamsSchema, tenantRoute, type ErrorStatus } from '../openapi-helpers';
import { submissionSchema, submitterSchema } from '../submissions/submissions.schemas';
import { templateParams, templateSchema } from '../templates/templates.schemas';
import { requireEmbedGrant } from './embed-grant';

const tags = ['Embedding'];

export const embedSecurity = [{ EmbedToken: [] }];

export const mintEmbedTokenBody = z.object({
  resource_type: z
    .enum(EMBED_RESOURCE_TYPES, { error: 'must be submission (a signing form) or template (a builder)' })
    .openapi({ example: 'submission' }),
  resource_id: z
    .union([z.number().int().positive(), z.string().min(1).max(64)], {
      error: 'must be the submission’s integer id, or the template’s tpl_… or integer id',
    })
    .openapi({ description: 'The submission’s id, or the template’s `tpl_…` or integer id.', example: 1 }),
  permissions: z
    .array(z.string({ error: 'must be a list of permission names' }), { error: 'must be a list of permission names' })
    .max(4, 'must list at most 4 permissions')
    .optional()
    .openapi({
      description: 'submission: `sign`, `view`; template: `edit`, `view`. Left out: every permission of the kind.',
      example: ['sign', 'view'],
    }),
  submitter_id: z
    .number({ error: 'must be the integer id of one of the submission’s submitters' })
    .int({ error: 'must be the integer id of one of the submission’s submitters' })
    .positive({ error: 'must be the integer id of one of the submission’s submitters' })
    .optional()
    .openapi({
      description:
        'submission tokens only: the one signer whose form the token opens (a submitter of this submission, else 422). Left out: the next ' +
        'signer in the submission’s order (sequential: whose turn it is; parallel: the first still to act); a token with `sign` is 422 when ' +
        'nobody is left to sign.',
      example: 12,
    }),
});

export const embedTokenSchema = z
  .object({
    token: z.string().openapi({ description: 'The embed JWT: send it as `Authorization: Bearer <token>` from the embedding page.' }),
    expires_at: z.string().openapi({ description: 'When it stops working: 4 hours after minting; it cannot be renewed.' }),
  })
  .openapi('EmbedToken');

export const mintEmbedToken = tenantRoute(
  // 404: a submission or template of another account, or none.
  { scopes: ['submissions:write', 'templates:write'], errors: [404] },
  {
    method: 'post',
    path: '/embed/token',
    tags,
    summary: 'Mint an embed token for one signing form or one template builder',
    description:
      'Server-side only: the token goes to the page that embeds the form or builder. `submission` tokens need ' +
      '`submissions:write`, `template` tokens `templates:write`. The token (HS256 under the account’s embed key) is bound ' +
      'to the one resource, lasts 4 hours and is not renewable; the resource must belong to the caller’s account (404). A ' +
      '`submission` token opens one signer’s form: `submitter_id`’s, else the next signer in order (docs/embedding.md › Which signer); ' +
      'it shows and saves no other signer’s.',
    request: { body: { required: true, content: { 'application/json': { schema: mintEmbedTokenBody } } } },
    responses: { 201: { description: 'The token.', content: { 'application/json': { schema: embedTokenSchema } } } },
  },
);

export const embedKeySchema = z
  .object({
    embed_key: z.object({
      rotated_at: z.string(),
      previous_valid_until: z.string().openapi({ description: 'Tokens signed with the previous key verify until then (4 hours).' }),
    }),
  })
  .openapi('EmbedKeyRotation');

export const rotateEmbedKey = tenantRoute(
  { scopes: ['account:write'], admin: true },
  {
    method: 'post',
    path: '/settings/embed_key/rotate',
    tags: ['Settings'],
    summary: 'Rotate the key embed tokens are signed with',
    description:
      'New tokens are signed with a new key at once. Tokens signed with the previous key keep working until they expire ' +
      '(at most 4 hours); a key two rotations old stops verifying immediately, so rotating twice retires every earlier token.',
    responses: { 200: { description: 'When the rotation took effect.', content: { 'application/json': { schema: embedKeySchema } } } },
  },
);

/**
 * createRoute for a route that takes only an embed JWT of one kind: the grant check (with the permission a
 * write needs), the EmbedToken security scheme and every error it can answer.
 */
function embedRoute<const R extends RouteConfig>(
  resourceType: EmbedResourceType,
  options: { permission?: string; errors?: ErrorStatus[] },
  route: R,
): R {
  const middleware: MiddlewareHandler<AppEnv>[] = [requireEmbedGrant(resourceType, options.permission)];
  const bodyTypes = Object.keys(route.request?.body?.content ?? {});
  if (bodyTypes.length === 1 && bodyTypes[0] === 'application/json')
    middleware.push(requireJsonBody({ allowEmpty: !route.request?.body?.required }));
  // 403 also answers a suspended account's tokens; 422 an id longer than ids are.
  const statuses = new Set<ErrorStatus>([400, 401, 403, 404, 422, 429, ...(options.errors ?? [])]);
  return createRoute({
    ...route,
    description:
      `${route.description ?? ''}\n\nCredential: an embed JWT for ${resourceType === 'template' ? 'this template (a builder token)' : 'this submission (a signing form token)'}${options.permission ? ` with \`${options.permission}\`` : ''}; other credentials get 401.`.trim(),
    security: embedSecurity,
    middleware,
    responses: { ...errorResponses([...statuses].sort()), ...route.responses },
  }) as R;
}

export const embedTemplateOptionsSchema = z
  .object({
    permissions: z.array(z.string()).openapi({ description: 'What the token grants: `edit` and/or `view`.' }),
    expires_at: z.string().openapi({ description: 'When the token stops working.' }),
    field_types: z.array(z.string()).openapi({ description: 'Every field type the builder can place.' }),
    validation_presets: z.array(z.string()).openapi({ description: 'Named patterns a text field can use.' }),
    roles: z.array(z.string()).openapi({ description: 'The template’s roles, in order.' }),
    preferences: z.record(z.string(), z.unknown()).openapi({ description: 'The template’s preferences.' }),
    locale: z.string().openapi({ description: 'The account’s locale.' }),
    endpoints: z
      .object({ template: z.string(), documents: z.string() })
      .openapi({ description: 'Where the builder reads and saves with this token.' }),
  })
  .openapi('EmbedTemplateOptions');

export const getEmbedTemplate = embedRoute(
  'template',
  {},
  {
    method: 'get',
    path: '/embed/template/{id}',
    tags,
    summary: 'The template a builder token is for, with what the builder needs',
    request: { params: templateParams },
    responses: {
      200: {
        description: 'The template (as GET /api/templates/{id}) and the builder options.',
        content: { 'application/json': { schema: z.object({ template: templateSchema, options: embedTemplateOptionsSchema }) } },
      },
    },
  },
);

export const updateEmbedTemplate = embedRoute(
  'template',
  { errors: [422] },
  {
    method: 'put',
    path: '/embed/template/{id}',
    tags,
    summary: 'Always refused: save through PUT /api/templates/{id}',
    description:
      'Answers 422 with `code` `update_via_templates_api`: edits go through PUT /api/templates/{id} (with the same token and `edit`), which keeps version history.',
    request: { params: templateParams },
    responses: {},
  },
);

export const embedSubmissionOptionsSchema = z
  .object({
    permissions: z.array(z.string()).openapi({ description: 'What the token grants: `sign` and/or `view`.' }),
    submitter_id: z.number().int().nullable().openapi({ description: 'The signer whose form the token opens; null: none.' }),
    expires_at: z.string().openapi({ description: 'When the token stops working.' }),
    locale: z.string().openapi({ description: 'The account’s locale.' }),
  })
  .openapi('EmbedSubmissionOptions');

const ownSignerOnly = (what: string) => ({ description: `${what}; only on the token’s own signer, and only with \`sign\`.` });

// New objects from the shapes (not .extend, which the document would render as allOf with the
// original, whose required signing links would then still be required).
export const embedSubmitterSchema = z
  .object({
    ...submitterSchema.shape,
    slug: z.string().optional().openapi(ownSignerOnly('The signing link’s slug')),
    signing_url: z.string().optional().openapi(ownSignerOnly('The signing link')),
    embed_src: z.string().optional().openapi(ownSignerOnly('The address to frame')),
  })
  .openapi('EmbedSubmitter');

export const embedSubmissionSchema = z
  .object({ ...submissionSchema.shape, submitters: z.array(embedSubmitterSchema) })
  .openapi('EmbedSubmission');

export const getEmbedSubmission = embedRoute(
  'submission',
  { errors: [410] },
  {
    method: 'get',
    path: '/embed/submission/{id}',
    tags,
    summary: 'The submission a signing form token is for',
    description:
      '`submission` has the shape of GET /api/submissions/{id}, except that signing links are credentials: a submitter carries `slug`, ' +
      '`signing_url` and `embed_src` only when it is the token’s own signer and the token has `sign`. A view-only token shows none.',
    request: { params: idParamsSchema },
    responses: {
      200: {
        description: 'The submission and the form options.',
        content: { 'application/json': { schema: z.object({ submission: embedSubmissionSchema, options: embedSubmissionOptionsSchema }) } },
      },
    },
  },
);

export const saveEmbedValuesBody = z.object({
  submitter_id: z.number({ error: 'must be the integer id of one of the submission’s submitters' }).int().positive().optional().openapi({
    description: 'Whose values these are: may be left out, and may only name the token’s own signer (403 otherwise).',
  }),
  values: z.record(z.string(), z.unknown(), { error: 'must be an object of field uuid → value' }).openapi({
    description: 'Field uuid → value, checked as the signing page checks them.',
    example: { 'b5d1…': 'Jane Doe' },
  }),
});

export const saveEmbedValues = embedRoute(
  'submission',
  { permission: 'sign', errors: [403, 409, 410, 422] },
  {
    method: 'put',
    path: '/embed/submission/{id}/values',
    tags,
    summary: 'Save values into a signer’s form (e.g. prefilled by the embedding page)',
    description:
      'Checked and saved as the signing page’s autosave (`field.updated` per changed field), into the form of the token’s own ' +
      'signer only (another signer: 403). Refused with 422 once the ' +
      'signer has completed or declined, or the link has expired (spec › Submitter states rule 3). Needs `sign` (403).',
    request: { params: idParamsSchema, body: { required: true, content: { 'application/json': { schema: saveEmbedValuesBody } } } },
    responses: {
      200: {
        description: 'The submitter’s saved values.',
        content: { 'application/json': { schema: z.object({ submitter_id: z.number(), values: z.record(z.string(), z.unknown()) }) } },
      },
    },
  },
);

export const completeEmbedSubmission = embedRoute(
  'submission',
  { errors: [410, 422] },
  {
    method: 'post',
    path: '/embed/submission/{id}/complete',
    tags,
    summary: 'Always refused: signers complete on the signing page',
    description:
      'Answers 422 with `code` `complete_on_signing_page`: completion happens on the signing page (the embedded form), where the signer submits.',
    request: { params: idParamsSchema },
    responses: {},
  },
);
