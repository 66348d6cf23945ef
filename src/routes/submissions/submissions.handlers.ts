// Handlers for submissions and submitters: parse, call the submission services, shape the response.
import type { AppRouteHandler } from '../app-route-handler';
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import type { Db } from '../../db/client';
import * as submissionsDb from '../../db/queries/submissions';
import { findTemplate } from '../../db/queries/templates';
import type { Submitter } from '../../db/schema/index';
import { ApiError, forbidden, notFound, unprocessable } from '../../lib/errors';
import { paginateByCursor } from '../../lib/pagination';
import { baseUrl, clientIp } from '../../lib/request';
import { grants } from '../../lib/scopes';
import { parseDateTime } from '../../lib/time';
import { upgradeUrl } from '../../middleware/authorize';
import { auditStatementWithResource } from '../../middleware/audit';
import { browserLauncher } from '../../services/rendering/browser-launches';
import * as creating from '../../services/submissions/create-submissions';
import * as editing from '../../services/submissions/edit-submissions';
import type { SubmissionInput } from '../../services/submissions/submission-input';
import * as state from '../../services/submissions/submission-state';
import { findScope, loadScopes, type SubmissionScope } from '../../services/submissions/submission-scope';
import { serializeSubmission, serializeSubmitter } from './submissions.serialize';
import type * as routes from './submissions.routes';
import { EMAIL } from '../../shared/field-values';
import { activeDomainsOf, type ActiveDomain } from '../../db/queries/custom-domains';
import { withLinkDomain, type LinkDomain } from '../../services/submissions/links';
import { eraseSubmission } from '../../services/submissions/erase-submission';
import { assertNotErased, legalHoldConflict } from './erased-submissions';

function apiBase(c: Context<AppEnv>): string {
  return baseUrl(c.req.raw, c.env.APP_URL);
}

function contextOf(c: Context<AppEnv>, db: Db, linkDomains: readonly LinkDomain[] = []): creating.CreateContext {
  const { account, user } = c.var.principal;
  return {
    linkDomains,
    db,
    account,
    userId: user.id,
    serviceName: c.env.SERVICE_NAME,
    apiBase: apiBase(c),
    linkSecret: c.env.ENCRYPTION_KEY,
    requestBase: apiBase(c),
    upgradeUrl: upgradeUrl(c.req.raw, c.env.APP_URL),
    messagesQueue: c.var.scope.queues.messages,
    sealingQueue: c.var.scope.queues.sealing,
    files: c.env.FILES,
    browser: browserLauncher(c.env, account.id),
    ip: clientIp(c.req.raw),
    userAgent: c.req.header('User-Agent') ?? null,
  };
}

/**
 * Points the scopes' signing links at the custom domain that applies now (withLinkDomain), so responses,
 * reminders and sends use it, and a removed or inactive domain falls back to the stored service base.
 * `domains`: the account's active domains when the caller has read them already.
 */
async function withLiveLinks<S extends SubmissionScope>(c: Context<AppEnv>, scopes: S[], domains?: ActiveDomain[]): Promise<S[]> {
  if (scopes.length === 0) return scopes;
  const active = domains ?? (await activeDomainsOf(c.var.control, c.var.principal.account.id));
  return scopes.map((scope) => withLinkDomain(scope, active));
}

/** A create's context whose batch also writes the request's audit row (the middleware then writes none). */
function creatingContextOf(c: Context<AppEnv>, db: Db, domains: readonly LinkDomain[], usedThisMonth?: number): creating.CreateContext {
  return {
    ...contextOf(c, db, domains),
    usedThisMonth,
    auditStatement: (slugs) => auditStatementWithResource(c, db, 201, CREATE_NOTE, submissionsDb.submissionIdListBySlugs(slugs)),
  };
}

const CREATE_NOTE = { action: 'submission.create', resourceType: 'submission' } as const;

/** After a create whose batch held its audit row: the note with the new ids, and no second row. */
function recordedCreate(c: Context<AppEnv>, ids: (number | string)[]) {
  c.set('audit', { ...CREATE_NOTE, resourceId: ids.join(',') });
  c.set('auditRecorded', 201);
}

/**
 * What a create reads before it plans, all at once: the template (shard), the account's active domains
 * (control) and, on a plan that limits them, its submissions this month (shard).
 */
function sourceAndDomains(c: Context<AppEnv>, db: Db, templateRef: string | number | undefined) {
  const { account } = c.var.principal;
  return Promise.all([
    creating.templateForSubmissions(db, account.id, templateRef),
    activeDomainsOf(c.var.control, account.id),
    creating.submissionsThisMonth(db, account),
  ]);
}

/** A submission of the caller's account with its signing links pointing where they apply now (also the embed read). */
/** `reading` (the shard) and the account's active custom domains (the control database), read at the same time. */
function besideDomains<T>(c: Context<AppEnv>, reading: Promise<T>): Promise<[T, ActiveDomain[]]> {
  return Promise.all([reading, activeDomainsOf(c.var.control, c.var.principal.account.id)]);
}

async function readSubmission(db: Db, accountId: number, id: number): Promise<SubmissionScope> {
  const scope = await findScope(db, submissionsDb.submissionIdOf(db, accountId, id));
  if (!scope) throw notFound('Submission');
  assertNotErased(scope.submission);
  return scope;
}

export async function loadSubmission(c: Context<AppEnv>, db: Db, id: number): Promise<SubmissionScope> {
  const [scope, domains] = await besideDomains(c, readSubmission(db, c.var.principal.account.id, id));
  return withLinkDomain(scope, domains);
}

async function readSubmitter(db: Db, accountId: number, id: number): Promise<{ scope: SubmissionScope; submitter: Submitter }> {
  const scope = await findScope(db, submissionsDb.submissionIdOfSubmitter(db, accountId, id));
  const submitter = scope?.submitters.find((s) => submissionsDb.isSubmitterRef(s, id));
  if (!scope || !submitter) throw notFound('Submitter');
  assertNotErased(scope.submission);
  return { scope, submitter };
}

async function loadSubmitter(c: Context<AppEnv>, db: Db, id: number): Promise<{ scope: SubmissionScope; submitter: Submitter }> {
  const [read, domains] = await besideDomains(c, readSubmitter(db, c.var.principal.account.id, id));
  const scope = withLinkDomain(read.scope, domains);
  return { scope, submitter: scope.submitters.find((s) => s.id === read.submitter.id) ?? read.submitter };
}

function audit(c: Context<AppEnv>, action: string, id: number | string, resourceType = 'submission') {
  c.set('audit', { action, resourceType, resourceId: id });
}

/** A token with only submissions:draft may create drafts and nothing else (decisions.md › Scopes). */
function assertMaySend(c: Context<AppEnv>, draft: boolean) {
  if (draft) return;
  if (!grants(c.var.principal.credential.scopes, ['submissions:send', 'submissions:write'])) {
    throw forbidden('Insufficient scope. Required: submissions:send');
  }
}

type CreateBody = ReturnType<(typeof routes.createSubmission.request.body.content)['application/json']['schema']['parse']>;

/** The submissions a create body asks for: `submissions: [...]` (bulk) or the body itself. */
function inputsOf(body: CreateBody): { inputs: SubmissionInput[]; templateRefs: (string | number | undefined)[]; bulk: boolean } {
  const { submissions, template_id, ...defaults } = body;
  if (submissions) {
    if (submissions.length === 0) throw unprocessable('submissions must list at least one submission.');
    return {
      bulk: true,
      inputs: submissions.map(({ template_id: _ignored, ...item }) => ({ ...defaults, ...item })) as SubmissionInput[],
      templateRefs: submissions.map((s) => s.template_id ?? template_id),
    };
  }
  if (!defaults.submitters) throw new ApiError(400, 'submitters is required.');
  return { bulk: false, inputs: [defaults as SubmissionInput], templateRefs: [template_id] };
}

async function create(c: Context<AppEnv>, body: CreateBody, templateRef: string | number | undefined, origin: 'api' | 'template') {
  const { inputs, templateRefs, bulk } = inputsOf(body);
  for (const input of inputs) assertMaySend(c, input.draft === true);
  const refs = templateRefs.map((r) => r ?? templateRef);
  if (refs.some((r) => r === undefined)) throw new ApiError(400, 'template_id is required.');
  if (new Set(refs.map(String)).size > 1)
    throw unprocessable('Every submission of one request must use the same template; send one request per template.');
  const db = c.var.scope.db;
  const [source, domains, used] = await sourceAndDomains(c, db, refs[0]);
  const scopes = await withLiveLinks(
    c,
    await creating.createSubmissions(creatingContextOf(c, db, domains, used), source, inputs, bulk ? 'bulk' : origin),
    domains,
  );
  const json = scopes.map((s) => serializeSubmission(s, apiBase(c)));
  recordedCreate(
    c,
    json.map((s) => s.id),
  );
  return c.json(bulk ? json : json[0], 201);
}

export const createSubmission: AppRouteHandler<typeof routes.createSubmission> = async (c) =>
  create(c, c.req.valid('json'), undefined, 'api');
export const initSubmission: AppRouteHandler<typeof routes.initSubmission> = async (c) => create(c, c.req.valid('json'), undefined, 'api');
export const createTemplateSubmissions: AppRouteHandler<typeof routes.createTemplateSubmissions> = async (c) =>
  create(c, { ...c.req.valid('json'), template_id: undefined }, c.req.valid('param').id, 'template');

export const createSubmissionsFromEmails: AppRouteHandler<typeof routes.createSubmissionsFromEmails> = async (c) => {
  const { emails, template_id, ...defaults } = c.req.valid('json');
  const list = (Array.isArray(emails) ? emails : emails.split(/[,;\n]/)).map((e) => e.trim()).filter(Boolean);
  if (list.length === 0) throw unprocessable('emails must list at least one email address.');
  const bad = list.filter((e) => !EMAIL.test(e));
  if (bad.length) throw unprocessable(bad.map((e) => `"${e}" is not a valid email address.`));
  const db = c.var.scope.db;
  const [source, domains, used] = await sourceAndDomains(c, db, template_id);
  const inputs = list.map((email) => ({ ...defaults, submitters: [{ email }] }));
  const scopes = await withLiveLinks(
    c,
    await creating.createSubmissions(creatingContextOf(c, db, domains, used), source, inputs, 'emails'),
    domains,
  );
  const json = scopes.map((s) => serializeSubmission(s, apiBase(c)));
  recordedCreate(
    c,
    json.map((s) => s.id),
  );
  return c.json(json, 201);
};

type ListQuery = ReturnType<(typeof routes.listSubmissions.request.query)['parse']>;

/** A page of the account's submissions with their scopes (the shard's reads). */
async function readSubmissionsPage(db: Db, accountId: number, query: ListQuery) {
  let templateId: number | undefined;
  if (query.template_id !== undefined) {
    const template = await findTemplate(db, accountId, query.template_id);
    // An unknown template has no submissions: an empty page, not an error.
    templateId = template?.id ?? -1;
  }
  const page = await paginateByCursor(query, (window) =>
    submissionsDb.listSubmissionsPage(
      db,
      accountId,
      {
        templateId,
        status: query.status,
        q: query.q,
        externalId: query.external_id,
        slug: query.slug,
        templateFolder: query.template_folder,
        archived: query.archived === 'true' || query.status === 'archived',
        createdAfter: (query.created_after && parseDateTime(query.created_after)) || undefined,
        createdBefore: (query.created_before && parseDateTime(query.created_before)) || undefined,
      },
      window,
    ),
  );
  return { pagination: page.pagination, scopes: await loadScopes(db, page.data) };
}

export const listSubmissions: AppRouteHandler<typeof routes.listSubmissions> = async (c) => {
  const [{ scopes, pagination }, domains] = await besideDomains(
    c,
    readSubmissionsPage(c.var.scope.db, c.var.principal.account.id, c.req.valid('query')),
  );
  const live = await withLiveLinks(c, scopes, domains);
  return c.json({ data: live.map((s) => serializeSubmission(s, apiBase(c))), pagination }, 200);
};

export const getSubmission: AppRouteHandler<typeof routes.getSubmission> = async (c) => {
  const db = c.var.scope.db;
  const scope = await loadSubmission(c, db, c.req.valid('param').id);
  return c.json(serializeSubmission(scope, apiBase(c)), 200);
};

export const updateSubmission: AppRouteHandler<typeof routes.updateSubmission> = async (c) => {
  const db = c.var.scope.db;
  const scope = await loadSubmission(c, db, c.req.valid('param').id);
  const body = c.req.valid('json');
  if (scope.submission.status !== 'draft' && !grants(c.var.principal.credential.scopes, ['submissions:write'])) {
    throw forbidden('Insufficient scope. Required: submissions:write');
  }
  const updated = await editing.updateSubmission(contextOf(c, db), scope, body);
  audit(c, 'submission.update', updated.submission.id);
  return c.json(serializeSubmission(updated, apiBase(c)), 200);
};

export const sendSubmission: AppRouteHandler<typeof routes.sendSubmission> = async (c) => {
  const db = c.var.scope.db;
  const scope = await loadSubmission(c, db, c.req.valid('param').id);
  const sent = await state.sendDraft(contextOf(c, db), scope);
  audit(c, 'submission.send', sent.submission.id);
  return c.json(serializeSubmission(sent, apiBase(c)), 200);
};

async function archive(c: Context<AppEnv>, id: number) {
  const db = c.var.scope.db;
  const scope = await loadSubmission(c, db, id);
  const archived = await state.archiveSubmission(contextOf(c, db), scope);
  audit(c, 'submission.archive', archived.submission.id);
  return c.json(serializeSubmission(archived, apiBase(c)), 200);
}

export const archiveSubmission: AppRouteHandler<typeof routes.archiveSubmission> = async (c) => {
  const { id } = c.req.valid('param');
  if (c.req.valid('query').permanently === 'true') {
    // Erasure cannot be undone: account admins only (archiving stays open to every writer).
    if (c.var.principal.user.role !== 'admin') throw forbidden('Only account admins can erase a submission permanently.');
    const db = c.var.scope.db;
    const scope = await loadSubmission(c, db, id);
    if (scope.submission.legalHoldAt) throw legalHoldConflict(scope.submission.legalHoldAt);
    const outcome = await eraseSubmission(db, c.env.FILES, scope, {
      reason: 'request',
      userId: c.var.principal.user.id,
      ip: clientIp(c.req.raw),
      userAgent: c.req.header('User-Agent') ?? null,
    });
    // A hold set between the read above and the erasure's claim wins: nothing was erased.
    if (outcome === 'held') throw legalHoldConflict(null);
    audit(c, 'submission.erase', id);
    return c.body(null, 204);
  }
  return archive(c, id);
};

export const archiveSubmissionPost: AppRouteHandler<typeof routes.archiveSubmissionPost> = async (c) => archive(c, c.req.valid('param').id);

export const listSubmitters: AppRouteHandler<typeof routes.listSubmitters> = async (c) => {
  const query = c.req.valid('query');
  const db = c.var.scope.db;
  const accountId = c.var.principal.account.id;
  const page = await paginateByCursor(query, (window) =>
    submissionsDb.listSubmittersPage(
      db,
      accountId,
      {
        submissionId: query.submission_id,
        externalId: query.external_id,
        q: query.q,
        completedAfter: (query.completed_after && parseDateTime(query.completed_after)) || undefined,
        completedBefore: (query.completed_before && parseDateTime(query.completed_before)) || undefined,
      },
      window,
    ),
  );
  const scopes = await withLiveLinks(
    c,
    await loadScopes(db, await submissionsDb.listSubmissionsByIds(db, [...new Set(page.data.map((s) => s.submissionId))])),
  );
  const data = page.data.map((s) => {
    const scope = scopes.find((x) => x.submission.id === s.submissionId)!;
    return serializeSubmitter(s, scope);
  });
  return c.json({ data, pagination: page.pagination }, 200);
};

export const getSubmitter: AppRouteHandler<typeof routes.getSubmitter> = async (c) => {
  const db = c.var.scope.db;
  const { scope, submitter } = await loadSubmitter(c, db, c.req.valid('param').id);
  return c.json(serializeSubmitter(submitter, scope), 200);
};

export const updateSubmitter: AppRouteHandler<typeof routes.updateSubmitter> = async (c) => {
  const db = c.var.scope.db;
  const { scope, submitter } = await loadSubmitter(c, db, c.req.valid('param').id);
  const updated = await editing.updateSubmitter(contextOf(c, db), scope, submitter, c.req.valid('json'));
  audit(c, 'submitter.update', submitter.id, 'submitter');
  return c.json(serializeSubmitter(updated, scope), 200);
};

export const remindSubmitter: AppRouteHandler<typeof routes.remindSubmitter> = async (c) => {
  const db = c.var.scope.db;
  const { scope, submitter } = await loadSubmitter(c, db, c.req.valid('param').id);
  const reminded = await state.remind(contextOf(c, db), scope, submitter, 'reminder');
  audit(c, 'submitter.remind', submitter.id, 'submitter');
  return c.json(serializeSubmitter(reminded, scope), 200);
};
