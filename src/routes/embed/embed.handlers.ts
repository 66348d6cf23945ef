// Handlers for embedding: minting tokens, rotating the key, and the routes an embed token calls.
import type { AppRouteHandler } from '../app-route-handler';
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { findSubmission, listSubmittersOf } from '../../db/queries/submissions';
import { findTemplate, listCurrentDocuments } from '../../db/queries/templates';
import { FIELD_TYPES, type Submission } from '../../db/schema/index';
import { ApiError, forbidden, notFound, unprocessable } from '../../lib/errors';
import { baseUrl, clientIp } from '../../lib/request';
import { grants } from '../../lib/scopes';
import { nowIso } from '../../lib/time';
import { rotateEmbedKey as rotateKey, signingKey } from '../../services/embed/embed-keys';
import { nextSigner, withoutForeignCredentials } from '../../services/embed/embed-signer';
import { EMBED_PERMISSIONS, signEmbedToken, type EmbedGrant } from '../../services/embed/embed-tokens';
import { pageKind, saveValues } from '../../services/signing/signing-session';
import { VALIDATION_PRESETS } from '../../shared/template-schema';
import { loadSubmission } from '../submissions/submissions.handlers';
import { serializeSubmission } from '../submissions/submissions.serialize';
import { serializeTemplate, templatePath } from '../templates/templates.serialize';
import type * as routes from './embed.routes';

/** The permissions asked for, checked against the kind of token (422 with a sentence otherwise). */
function permissionsFor(type: keyof typeof EMBED_PERMISSIONS, asked: string[] | undefined): string[] {
  const allowed = EMBED_PERMISSIONS[type];
  if (asked === undefined) return [...allowed];
  const wrong = asked.filter((p) => !allowed.includes(p));
  if (wrong.length) {
    throw unprocessable(`permissions: "${wrong[0]}" is not a permission of a ${type} token; use ${allowed.join(' or ')}.`);
  }
  if (asked.length === 0) throw unprocessable(`permissions must name at least one of ${allowed.join(', ')}.`);
  return allowed.filter((p) => asked.includes(p));
}

/**
 * The signer a form token is bound to (docs/embedding.md › Which signer): the one `submitter_id` names,
 * which must be a submitter of this submission (422 otherwise), else the next signer in the submission's
 * order. A token that may sign needs one (422 when nobody is left to sign); a view token may have none.
 */
async function boundSigner(
  c: Context<AppEnv>,
  submission: Submission,
  asked: number | undefined,
  permissions: string[],
): Promise<number | null> {
  const submitters = await listSubmittersOf(c.var.scope.db, [submission.id]);
  if (asked !== undefined) {
    const named = submitters.find((s) => s.id === asked);
    if (!named) throw unprocessable(`submitter_id ${asked} is not a submitter of submission ${submission.id}.`);
    return named.id;
  }
  const next = nextSigner(submission, submitters);
  if (!next && permissions.includes('sign')) {
    throw unprocessable(
      `Nobody is left to sign submission ${submission.id} (every signer has completed, declined or expired); name a signer with submitter_id to show their form.`,
    );
  }
  return next?.id ?? null;
}

export const mintEmbedToken: AppRouteHandler<typeof routes.mintEmbedToken> = async (c) => {
  const body = c.req.valid('json');
  const { account, user, credential } = c.var.principal;
  const type = body.resource_type;
  // Each kind of token is minted under the scope that writes its resource (spec › Scopes).
  const required = type === 'submission' ? 'submissions:write' : 'templates:write';
  if (!grants(credential.scopes, [required])) throw forbidden(`Insufficient scope. Required: ${required}`);
  const permissions = permissionsFor(type, body.permissions);
  let resourceId: string;
  let submitterId: number | null = null;
  if (type === 'submission') {
    const ref = String(body.resource_id);
    if (!/^[1-9][0-9]{0,15}$/.test(ref)) throw unprocessable('resource_id must be the submission’s integer id.');
    const submission = await findSubmission(c.var.scope.db, account.id, Number(ref));
    if (!submission) throw notFound('Submission');
    resourceId = String(submission.id);
    submitterId = await boundSigner(c, submission, body.submitter_id, permissions);
  } else {
    if (body.submitter_id !== undefined)
      throw unprocessable('submitter_id names a signer of a submission; a template (builder) token has none.');
    const template = await findTemplate(c.var.scope.db, account.id, body.resource_id);
    if (!template) throw notFound('Template');
    resourceId = template.publicId;
  }
  const key = await signingKey(c.env.ENCRYPTION_KEY, c.var.control, account);
  const minted = await signEmbedToken(key, {
    accountId: account.id,
    userId: user.id,
    resourceType: type,
    resourceId,
    permissions,
    submitterId,
  });
  const signer = submitterId ? ` submitter=${submitterId}` : '';
  c.set('audit', { action: 'embed_token.create', resourceType: type, resourceId: `${resourceId} jti=${minted.jti}${signer}` });
  return c.json({ token: minted.token, expires_at: minted.expiresAt }, 201);
};

export const rotateEmbedKey: AppRouteHandler<typeof routes.rotateEmbedKey> = async (c) => {
  const account = await rotateKey(c.env.ENCRYPTION_KEY, c.var.control, c.var.principal.account);
  c.set('audit', { action: 'embed_key.rotate', resourceType: 'account', resourceId: account.id });
  return c.json({ embed_key: { rotated_at: account.updatedAt, previous_valid_until: account.embedKeyPreviousUntil ?? nowIso() } }, 200);
};

function grantOf(c: Context<AppEnv>): EmbedGrant {
  // requireEmbedGrant ran first: the grant is there.
  return c.var.embed as EmbedGrant;
}

async function embeddedTemplate(c: Context<AppEnv>, id: string) {
  const template = await findTemplate(c.var.scope.db, c.var.principal.account.id, id);
  if (!template || template.publicId !== grantOf(c).resourceId) throw notFound('Template');
  return template;
}

export const getEmbedTemplate: AppRouteHandler<typeof routes.getEmbedTemplate> = async (c) => {
  const template = await embeddedTemplate(c, c.req.valid('param').id);
  const documents = await listCurrentDocuments(c.var.scope.db, [template.id]);
  const grant = grantOf(c);
  const path = templatePath(template);
  return c.json(
    {
      template: serializeTemplate(template, documents, baseUrl(c.req.raw, c.env.APP_URL)),
      options: {
        permissions: grant.permissions,
        expires_at: grant.expiresAt,
        field_types: [...FIELD_TYPES],
        validation_presets: [...VALIDATION_PRESETS],
        roles: template.submitters.map((s) => s.name),
        preferences: template.preferences,
        locale: c.var.principal.account.locale,
        endpoints: { template: path, documents: `${path}/documents` },
      },
    },
    200,
  );
};

export const updateEmbedTemplate: AppRouteHandler<typeof routes.updateEmbedTemplate> = async (c) => {
  await embeddedTemplate(c, c.req.valid('param').id);
  throw new ApiError(
    422,
    'Templates are saved through PUT /api/templates/{id} (with this token and the edit permission), which keeps their version history.',
    { code: 'update_via_templates_api' },
  );
};

/** The submission the form token is for; another id is not found. */
async function embeddedSubmission(c: Context<AppEnv>, id: number) {
  if (String(id) !== grantOf(c).resourceId) throw notFound('Submission');
  return loadSubmission(c, c.var.scope.db, id);
}

export const getEmbedSubmission: AppRouteHandler<typeof routes.getEmbedSubmission> = async (c) => {
  const scope = await embeddedSubmission(c, c.req.valid('param').id);
  const grant = grantOf(c);
  const submission = serializeSubmission(scope, baseUrl(c.req.raw, c.env.APP_URL));
  return c.json(
    {
      // A signing link is a credential: only the token's own signer's, and only to a token that signs.
      submission: { ...submission, submitters: submission.submitters.map((s) => withoutForeignCredentials(grant, s)) },
      options: {
        permissions: grant.permissions,
        submitter_id: grant.submitterId,
        expires_at: grant.expiresAt,
        locale: c.var.principal.account.locale,
      },
    },
    200,
  );
};

const REFUSED_BECAUSE = {
  completed: 'has completed the form',
  declined: 'has declined the form',
  expired: 'has a signing link that has expired',
} as const;

export const saveEmbedValues: AppRouteHandler<typeof routes.saveEmbedValues> = async (c) => {
  const scope = await embeddedSubmission(c, c.req.valid('param').id);
  const body = c.req.valid('json');
  const grant = grantOf(c);
  if (body.submitter_id !== undefined && !scope.submitters.some((s) => s.id === body.submitter_id)) throw notFound('Submitter');
  // The token opens one signer's form, fixed when it was minted (docs/embedding.md › Which signer).
  const submitter = scope.submitters.find((s) => s.id === grant.submitterId);
  if (!submitter) throw forbidden('This embed token opens no signer’s form; mint one for a signer (submitter_id) to save values.');
  if (body.submitter_id !== undefined && body.submitter_id !== submitter.id) {
    throw forbidden(`This embed token opens the form of submitter ${submitter.id} only; it cannot save another signer’s fields.`);
  }
  const account = c.var.principal.account;
  const signing = { account, scope, submitter };
  // Spec › Submitter states rule 3: no field is saved through an embed token once the signer is done.
  const kind = pageKind(signing);
  if (kind === 'completed' || kind === 'declined' || kind === 'expired') {
    throw unprocessable(`Submitter ${submitter.id} ${REFUSED_BECAUSE[kind]}: an embed token can no longer save its fields.`);
  }
  const base = baseUrl(c.req.raw, c.env.APP_URL);
  const saved = await saveValues(
    {
      db: c.var.scope.db,
      account,
      serviceName: c.env.SERVICE_NAME,
      linkSecret: c.env.ENCRYPTION_KEY,
      apiBase: base,
      messagesQueue: c.var.scope.queues.messages,
      sealingQueue: c.var.scope.queues.sealing,
      ip: clientIp(c.req.raw),
      userAgent: c.req.header('User-Agent') ?? null,
    },
    signing,
    body.values,
  );
  c.set('audit', { action: 'embed.values.update', resourceType: 'submitter', resourceId: submitter.id });
  return c.json({ submitter_id: saved.id, values: saved.values }, 200);
};

export const completeEmbedSubmission: AppRouteHandler<typeof routes.completeEmbedSubmission> = async (c) => {
  await embeddedSubmission(c, c.req.valid('param').id);
  throw new ApiError(422, 'Signers complete their form on the signing page (the embedded form), not through the API.', {
    code: 'complete_on_signing_page',
  });
};
