// Creating submissions (spec › Creating a submission): every input checked against the template before
// anything is stored, then each submission — row, submitters, trail, events, invitations — in one batch.
import type { Db } from '../../db/client';
import { brandingsOf } from '../../db/queries/brands';
import { messageInsertForNewRows } from '../../db/queries/messages';
import {
  countSubmissionsSince,
  submissionsSinceCountQuery,
  insertResolvedEventStatement,
  insertSubmissionEventStatement,
  insertSubmissionStatement,
  reserveSubmissionIds,
  insertSubmitterStatement,
  listSubmissionsBySlugs,
  listSubmittersOf,
} from '../../db/queries/submissions';
import { findTemplate, listCurrentDocuments } from '../../db/queries/templates';
import type { Account, BrandingValues, Submission, SubmissionPreferences, Submitter, Template, TemplateDocument, TemplateField } from '../../db/schema/index';
import { notFound, unprocessable } from '../../lib/errors';
import { planOf } from '../../lib/plans';
import { nowIso, parseDateTime } from '../../lib/time';
import { assertWithinPlanLimit, monthStartIso, planLimitGuard, planLimitReached, refusingPastPlanLimit } from '../plan-limits';
import { formEventData, submissionEventData } from '../webhooks/payloads';
import { ChangeSet } from './change-set';
import { checkFieldValue, EMAIL, isBlank, PHONE } from '../../shared/field-values';
import { chooseLinkBase, chooseLinkDomain, newSlug, type LinkDomain } from './links';
import { channelsFor, messagesFor, type MessageSource } from './notifications';
import type { SubmissionScope } from './submission-scope';
import { autoSignValues } from './auto-sign';
import { effectiveSignatureLevel, levelAboveAccountProblem, type SignatureLevel } from '../signature-levels/levels';
import type { BrowserLauncher } from '../rendering/browser-launches';
import { docxDocumentsOf, generateDocuments, missingVariablesProblem, variableValues, type DocxDocument, type GeneratedDocument } from './generated-documents';
import { ACTIVE_SUBMITTER_STATES, completeSubmitter, isTurnOf, submittersToInvite, type StateContext } from './submission-state';

export type SubmitterInput = {
  role?: string;
  uuid?: string;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  external_id?: string | null;
  values?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  send_email?: boolean;
  send_sms?: boolean;
};

export type SubmissionInput = {
  submitters: SubmitterInput[];
  submitters_order?: 'sequential' | 'parallel';
  send_email?: boolean;
  send_sms?: boolean;
  expire_at?: string | null;
  auto_sign?: boolean;
  draft?: boolean;
  metadata?: Record<string, unknown>;
  /** A DOCX template's variables (decisions.md › Documents in). */
  values?: Record<string, unknown>;
  preferences?: SubmissionPreferences;
  message?: { subject?: string; body?: string };
};

export type CreateContext = StateContext & {
  account: Account;
  userId: number | null;
  upgradeUrl: string;
  /** Origin of the request (or APP_URL): stored as the signing links' base, the fallback of any custom domain. */
  requestBase: string;
  /** The account's active custom domains, for the links the invitations carry (chooseLinkBase). */
  linkDomains?: readonly LinkDomain[];
  /** Where DOCX templates' documents are kept and their filled copies stored, and the browser that prints them. */
  files?: R2Bucket;
  browser?: BrowserLauncher;
};

/** At most this many submitters per submission and submissions per request (docs/decisions.md › Submissions). */
export const MAX_SUBMITTERS = 50;
export const MAX_BULK = 100;


function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A submission ready to store: rows and what goes out with them. */
type Planned = {
  /** `id` only when reserved ahead (a DOCX that prints `submission_id`); otherwise the insert assigns it. */
  submission: Omit<Submission, 'id' | 'createdAt' | 'updatedAt'> & { id?: number; createdAt: string; updatedAt: string };
  submitters: (Omit<Submitter, 'id' | 'submissionId'>)[];
  message?: SubmissionInput['message'];
  /** The branding of the brand its emails use now (the submission's `brand_id`, else the template's). */
  brand: BrandingValues | null;
};

function checkSubmitters(template: Template, input: SubmissionInput, where: string, problems: string[]) {
  const roles = template.submitters;
  const used = new Set<string>();
  const resolved: { roleUuid: string; role: string; input: SubmitterInput; label: string }[] = [];
  if (!Array.isArray(input.submitters) || input.submitters.length === 0) {
    problems.push(`${where}submitters must list at least one submitter.`);
    return resolved;
  }
  if (input.submitters.length > MAX_SUBMITTERS) problems.push(`${where}submitters may list at most ${MAX_SUBMITTERS} submitters.`);
  input.submitters.forEach((s, i) => {
    const label = `${where}submitters[${i}]`;
    const role = matchRole(roles, s, i, used);
    if (!role) {
      if (s.role || s.uuid) {
        problems.push(`${label}: role "${s.role ?? s.uuid}" must match a template submitter (${roles.map((r) => `"${r.name}"`).join(', ')}).`);
      } else {
        problems.push(`${label}: the template has ${roles.length} ${roles.length === 1 ? 'role' : 'roles'} and all are taken; name a role.`);
      }
      return;
    }
    if (used.has(role.uuid)) {
      problems.push(`${label}: role "${role.name}" is already taken by another submitter; each role is signed by one submitter.`);
      return;
    }
    used.add(role.uuid);
    const email = typeof s.email === 'string' ? s.email.trim() : '';
    if (!email) problems.push(`${label}: email can't be blank.`);
    else if (!EMAIL.test(email) || email.length > 254) problems.push(`${label}: email "${email}" is not a valid email address.`);
    if (s.name && s.name.length > 255) problems.push(`${label}: name is too long (maximum is 255 characters).`);
    if (s.phone && !PHONE.test(s.phone.trim())) problems.push(`${label}: phone "${s.phone}" is not a phone number; use international format such as +14155550123.`);
    if ((s.send_sms ?? input.send_sms) && !s.phone) problems.push(`${label}: send_sms needs a phone number.`);
    if (s.external_id && s.external_id.length > 255) problems.push(`${label}: external_id is too long (maximum is 255 characters).`);
    resolved.push({ roleUuid: role.uuid, role: role.name, input: s, label });
  });
  // Roles nobody was named for are simply not part of this submission (DocuSeal's rule): their fields
  // are neither required nor stamped.
  return resolved;
}

/**
 * The template role a listed submitter signs, as DocuSeal matches them (issue 21 › 12): by `role` name,
 * else by `uuid`, else by position — the role at the same index, or the first one still free when that
 * one is taken. Undefined when a named role or uuid matches nothing.
 */
function matchRole(roles: Template['submitters'], s: SubmitterInput, index: number, used: ReadonlySet<string>): Template['submitters'][number] | undefined {
  const byRole = s.role ? roles.find((r) => sameName(r.name, s.role!)) : undefined;
  if (byRole) return byRole;
  const byUuid = s.uuid ? roles.find((r) => r.uuid === s.uuid!.toLowerCase()) : undefined;
  if (byUuid) return byUuid;
  if (s.role || s.uuid) return undefined;
  const atIndex = roles[index];
  return atIndex && !used.has(atIndex.uuid) ? atIndex : roles.find((r) => !used.has(r.uuid));
}

/**
 * Values by field name (or uuid) → values by field uuid, each checked against its field. A `file` value
 * names a signer's upload, so only an existing submitter can have one (`uploads: true`; the caller then
 * checks the uploads exist, src/services/signing/attachments.ts); a submission being created or a
 * draft cannot.
 */
export function checkValues(
  fields: TemplateField[],
  roleName: string,
  values: Record<string, unknown> | undefined,
  label: string,
  problems: string[],
  options: { uploads?: boolean; variables?: ReadonlySet<string> } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    const field = fields.find((f) => f.uuid === key.toLowerCase()) ?? fields.find((f) => f.name === key) ?? fields.find((f) => sameName(f.name, key));
    // A variable of the template's DOCX documents fills them (decisions.md › Documents in: submitter
    // values first); it is no field value, so nothing is stored for it.
    if (!field && options.variables?.has(key)) continue;
    if (!field) {
      problems.push(`${label}: values names "${key}", which is not a field of the role "${roleName}".`);
      continue;
    }
    if (field.type === 'file' && !options.uploads && !isBlank(value)) {
      problems.push(`${label}: Field "${field.name}" takes a file the signer uploads on the signing page; it cannot be prefilled.`);
      continue;
    }
    const checked = checkFieldValue({ ...field, required: false }, value);
    if (!checked.ok) problems.push(`${label}: ${checked.problem}`);
    else if (checked.value !== null) out[field.uuid] = checked.value;
  }
  return out;
}

function checkSubmission(
  template: Template,
  input: SubmissionInput,
  where: string,
  problems: string[],
  at: string,
  brands: ReadonlyMap<number, BrandingValues>,
  accountLevel: SignatureLevel,
  variables: ReadonlySet<string>,
) {
  const resolved = checkSubmitters(template, input, where, problems);
  // The level is fixed now (decisions.md › Signature levels): never above the account's, whichever
  // preference chose it; a template asking for more than an account later lowered to is refused here.
  const signatureLevel = effectiveSignatureLevel(input.preferences?.signature_level, template.preferences.signature_level, accountLevel);
  const levelProblem = input.preferences?.signature_level
    ? levelAboveAccountProblem(`${where}preferences.`, signatureLevel, accountLevel)
    : levelAboveAccountProblem(`Template ${template.publicId} preferences.`, signatureLevel, accountLevel);
  if (levelProblem) problems.push(levelProblem);
  if (input.expire_at) {
    const when = parseDateTime(input.expire_at);
    if (when === null) problems.push(`${where}expire_at "${input.expire_at}" is not a date-time such as 2026-01-31T12:00:00Z.`);
    else if (when <= at) problems.push(`${where}expire_at must be in the future.`);
  }
  // Unknown, deleted and other accounts' brands read alike: an id reveals nothing (spec › Create brand).
  if (input.preferences?.brand_id !== undefined && !brands.has(input.preferences.brand_id)) {
    problems.push(`${where}preferences.brand_id ${input.preferences.brand_id} is not a brand of this account.`);
  }
  for (const key of ['reminder_subject', 'reminder_body'] as const) {
    const value = input.preferences?.[key];
    if (value !== undefined && (typeof value !== 'string' || value.length > 10_000)) problems.push(`${where}preferences.${key} must be text up to 10,000 characters.`);
  }
  const url = input.preferences?.completed_redirect_url;
  if (url !== undefined && !/^https?:\/\/\S+$/i.test(url)) problems.push(`${where}preferences.completed_redirect_url must be an http(s) URL.`);
  const submitters = resolved.map((r, position) => {
    const fields = template.fields.filter((f) => f.submitter_uuid === r.roleUuid);
    const values = checkValues(fields, r.role, r.input.values, r.label, problems, { variables });
    return {
      uuid: crypto.randomUUID(),
      slug: newSlug(template.accountId),
      roleUuid: r.roleUuid,
      role: r.role,
      position,
      email: r.input.email?.trim().toLowerCase() ?? null,
      name: r.input.name?.trim() || null,
      nameFromSigner: false,
      phone: r.input.phone?.trim() || null,
      externalId: r.input.external_id ?? null,
      status: 'waiting' as const,
      values,
      prefilled: Object.keys(values),
      metadata: r.input.metadata ?? {},
      sendEmail: r.input.send_email ?? true,
      sendSms: r.input.send_sms ?? input.send_sms ?? false,
      sentAt: null,
      openedAt: null,
      startedAt: null,
      completedAt: null,
      declinedAt: null,
      declineReason: null,
      expiredAt: null,
      remindedAt: null,
      completedIp: null,
      completedUserAgent: null,
      verificationMethod: null,
      disclosureVersion: null,
      disclosureAcceptedAt: null,
      createdAt: at,
      updatedAt: at,
    };
  });
  return { submitters, message: input.message, signatureLevel };
}

/** The brand ids a create request names: each submission's, and the template's own. */
function brandIdsOf(template: Template, inputs: SubmissionInput[]): number[] {
  const ids = [template.preferences.brand_id, ...inputs.map((input) => input.preferences?.brand_id)];
  return ids.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id));
}

export type TemplateForSubmissions = { template: Template; documents: TemplateDocument[] };

export async function templateForSubmissions(db: Db, accountId: number, ref: string | number | undefined): Promise<TemplateForSubmissions> {
  if (ref === undefined || ref === null || ref === '') throw unprocessable('template_id is required.');
  const template = await findTemplate(db, accountId, ref);
  if (!template) throw notFound('Template');
  if (template.archivedAt) throw unprocessable(`Template ${template.publicId} is archived; restore it before sending it for signing.`);
  const documents = await listCurrentDocuments(db, [template.id]);
  if (documents.length === 0) throw unprocessable(`Template ${template.publicId} has no documents to sign.`);
  return { template, documents };
}

/**
 * Checks every input, then stores them all in one batch (rows, submitters, trail, events and invitations
 * together: all or nothing), and returns them as stored.
 */
export async function createSubmissions(
  ctx: CreateContext,
  source: TemplateForSubmissions,
  inputs: SubmissionInput[],
  origin: 'api' | 'bulk' | 'emails' | 'template',
): Promise<SubmissionScope[]> {
  const { template, documents } = source;
  if (inputs.length > MAX_BULK) throw unprocessable(`submissions may list at most ${MAX_BULK} submissions per request.`);
  if (Number.isFinite(planOf(ctx.account.plan).limits.submissionsPerMonth)) {
    const used = await countSubmissionsSince(ctx.db, ctx.account.id, monthStartIso());
    assertWithinPlanLimit(ctx.account, 'submissionsPerMonth', used, ctx.upgradeUrl, inputs.length);
  }

  const at = nowIso();
  const problems: string[] = [];
  const linkBase = ctx.requestBase.replace(/\/+$/, '');
  const [brands, docx] = await Promise.all([brandingsOf(ctx.db, ctx.account.id, brandIdsOf(template, inputs)), ctx.files ? docxDocumentsOf(ctx.files, documents) : []]);
  const variables = new Set(docx.flatMap((d) => d.variables));
  const planned: Planned[] = inputs.map((input, i) => {
    const where = inputs.length > 1 ? `submissions[${i}].` : '';
    const checked = checkSubmission(template, input, where, problems, at, brands, ctx.account.signatureLevel, variables);
    return {
      message: checked.message,
      brand: brands.get(Number(input.preferences?.brand_id ?? template.preferences.brand_id)) ?? null,
      submitters: checked.submitters.map((s) => ({ ...s, accountId: ctx.account.id })),
      submission: {
        accountId: ctx.account.id,
        templateId: template.id,
        slug: newSlug(ctx.account.id),
        status: input.draft ? 'draft' : 'pending',
        submittersOrder: input.submitters_order ?? 'sequential',
        sendEmail: input.send_email ?? true,
        autoSign: input.auto_sign ?? false,
        source: origin,
        linkBase,
        templateVersion: template.version,
        documentIds: documents.map((d) => d.id),
        preferences: input.preferences ?? {},
        metadata: input.metadata ?? {},
        signatureLevel: checked.signatureLevel,
        createdById: ctx.userId,
        // An expire_at that is not a date-time is among `problems`, refused below before anything is stored.
        expireAt: (input.expire_at && parseDateTime(input.expire_at)) || null,
        sentAt: input.draft ? null : at,
        completedAt: null,
        expiredAt: null,
        archivedAt: null,
        archivedFrom: null,
        sealedAt: null,
        sealSweeps: 0,
        sealSweptAt: null,
        sealFailedAt: null,
        sealFailure: null,
        createdAt: at,
        updatedAt: at,
      },
    };
  });
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  // The DOCX built-in `submission_id` is the submission's id (spec › Template document), printed before
  // the row is stored: the ids are reserved first and the rows inserted with them.
  if (variables.has('submission_id')) {
    const ids = await reserveSubmissionIds(ctx.db, planned.length);
    planned.forEach((plan, i) => (plan.submission.id = ids[i]));
  }
  const generated = await generateDocxDocuments(ctx, template, docx, inputs, planned);

  // Every submission of the request goes into one D1 batch, one transaction: a bulk create is stored
  // whole or not at all (issue 21 › 8). The batch starts with the plan-limit guard (docs/limits.md), so
  // concurrent requests cannot pass the monthly limit between the count above and the insert.
  const cs = new ChangeSet(ctx.db);
  if (Number.isFinite(planOf(ctx.account.plan).limits.submissionsPerMonth)) {
    cs.add(planLimitGuard(ctx.db, ctx.account, 'submissionsPerMonth', submissionsSinceCountQuery(ctx.db, ctx.account.id, monthStartIso()), planned.length));
  }
  for (const plan of planned) addSubmission(ctx, cs, template, plan, at);
  await refusingPastPlanLimit(
    () => cs.commit(ctx.messagesQueue),
    () => planLimitReached(ctx.account, 'submissionsPerMonth', ctx.upgradeUrl),
  );
  // After the commit: a refused batch leaves no files. Until they are written, the template's rendering shows.
  await Promise.all(generated.map((g) => ctx.files!.put(g.key, g.bytes, { httpMetadata: { contentType: 'application/pdf' } })));

  const slugs = planned.map((p) => p.submission.slug);
  const rows = await listSubmissionsBySlugs(ctx.db, slugs);
  const submitters = await listSubmittersOf(ctx.db, rows.map((r) => r.id));
  const order = new Map(slugs.map((s, i) => [s, i]));
  rows.sort((a, b) => order.get(a.slug)! - order.get(b.slug)!);
  const scopeTemplate = {
    id: template.id,
    publicId: template.publicId,
    name: template.name,
    roles: template.submitters,
    fields: template.fields,
    preferences: template.preferences,
    documents,
  };
  const scopes = rows.map((submission, i) => ({
    submission,
    submitters: submitters.filter((s) => s.submissionId === submission.id),
    template: scopeTemplate,
    brand: planned[i].brand,
  }));
  const out: SubmissionScope[] = [];
  for (const scope of scopes) out.push(scope.submission.autoSign && scope.submission.status === 'pending' ? await applyAutoSign(ctx, scope) : scope);
  return out;
}

/**
 * auto_sign: completes, in signing order, every submitter whose form the API filled (autoSignValues), with
 * generated signatures for blank signature and initials fields. Runs after the submission is stored; a
 * submitter it cannot sign for simply signs on the page as usual.
 */
async function applyAutoSign(ctx: StateContext, scope: SubmissionScope): Promise<SubmissionScope> {
  let current = scope;
  // A qes signer signs only by authorizing at the provider themselves (issue 18 › 3).
  if (scope.submission.signatureLevel === 'qes') return current;
  for (;;) {
    if (current.submission.status !== 'pending') return current;
    const next = current.submitters.find((s) => ACTIVE_SUBMITTER_STATES.includes(s.status as never) && isTurnOf(current.submission, current.submitters, s) && autoSignValues(current, s));
    if (!next) return current;
    current = await completeSubmitter({ ...ctx, ip: null, userAgent: null }, current, next, { via: 'auto_sign', values: autoSignValues(current, next)!, verificationMethod: 'auto_sign' });
  }
}

function addSubmission(ctx: CreateContext, cs: ChangeSet, template: Template, plan: Planned, at: string): void {
  const { db } = ctx;
  const accountId = ctx.account.id;
  const slug = plan.submission.slug;
  const templateRef = { id: template.publicId, name: template.name };
  const draft = plan.submission.status === 'draft';

  // Who is invited now; they are stored as `sent` directly.
  const asRows = plan.submitters.map((s, i) => ({ ...s, id: -(i + 1), submissionId: 0 }) as Submitter);
  const invited = new Set(
    draft
      ? []
      : submittersToInvite(plan.submission, asRows)
          .filter((s) => {
            const c = channelsFor(plan.submission, s);
            return c.email || c.sms;
          })
          .map((s) => s.slug),
  );
  const submitters = plan.submitters.map((s) => (invited.has(s.slug) ? { ...s, status: 'sent' as const, sentAt: at } : s));

  cs.add(insertSubmissionStatement(db, plan.submission));
  for (const s of submitters) cs.add(insertSubmitterStatement(db, slug, s));
  cs.add(insertSubmissionEventStatement(db, { submissionSlug: slug }, null, { accountId, action: 'created', ip: ctx.ip, userAgent: ctx.userAgent, data: { source: plan.submission.source }, at }));

  const payloadSubmission = (status: string) =>
    submissionEventData({
      submission: {
        id: 0,
        slug,
        status,
        created_at: at,
        completed_at: null,
        template_id: template.publicId,
        metadata: plan.submission.metadata,
        submitters: [],
        documents: [],
      },
      template: templateRef,
    });
  const resolved = { submissionIds: { '$.submission.id': slug }, submittersArray: { path: '$.submission.submitters', submissionSlug: slug } };
  cs.add(insertResolvedEventStatement(db, accountId, 'submission.created', payloadSubmission(plan.submission.status), resolved));

  // The invitation's link and branding: the custom domain that applies now (the row keeps the service's base).
  const linkDomain = chooseLinkDomain(template.preferences, ctx.linkDomains ?? []);
  const source: MessageSource = {
    account: ctx.account,
    serviceName: ctx.serviceName,
    submission: { ...plan.submission, id: 0, linkBase: chooseLinkBase(template.preferences, linkDomain ? [linkDomain] : [], plan.submission.linkBase) },
    template: { name: template.name, preferences: template.preferences },
    invitation: plan.message,
    brand: plan.brand,
    domainBranding: linkDomain?.branding,
  };
  for (const s of submitters) {
    const formData = (event: 'form.created' | 'submitter.sent') =>
      insertResolvedEventStatement(
        db,
        accountId,
        event,
        formEventData({
          submitter: { id: 0, uuid: s.uuid, email: s.email ?? '', name: s.name ?? '', role: s.role, status: s.status, external_id: s.externalId, metadata: s.metadata, opened_at: null, completed_at: null, declined_at: null },
          submission: { id: 0, slug, status: plan.submission.status, template_id: template.publicId },
          template: templateRef,
        }),
        { submissionIds: { '$.submission.id': slug }, submitterIds: { '$.submitter.id': s.slug } },
      );
    cs.add(formData('form.created'));
    if (!invited.has(s.slug)) continue;
    const channels = channelsFor(plan.submission, s);
    for (const message of messagesFor('invitation', source, s, channels)) {
      cs.addMessage(messageInsertForNewRows(db, { ...message, submissionId: null, submitterId: null }, { submissionSlug: slug, submitterSlug: s.slug }));
    }
    cs.add(formData('submitter.sent'));
    cs.add(insertSubmissionEventStatement(db, { submissionSlug: slug }, { submitterSlug: s.slug }, { accountId, action: 'sent', ip: ctx.ip, userAgent: ctx.userAgent, data: {}, at }));
  }
  if (!draft) cs.add(insertResolvedEventStatement(db, accountId, 'submission.sent', payloadSubmission('pending'), resolved));
}

/**
 * A DOCX template's documents filled for each planned submission (generated-documents.ts): every
 * variable without a value is one 422 naming it, before anything is printed or stored.
 */
async function generateDocxDocuments(
  ctx: CreateContext,
  template: Template,
  docx: DocxDocument[],
  inputs: SubmissionInput[],
  planned: { submission: { id?: number; slug: string } }[],
): Promise<GeneratedDocument[]> {
  if (!ctx.files || !docx.length) return [];
  const variables = [...new Set(docx.flatMap((d) => d.variables))];
  const optional = (template.preferences.optional_variables as string[] | undefined) ?? [];
  const problems: string[] = [];
  const valuesOf = inputs.map((input, i) => {
    const where = inputs.length > 1 ? `submissions[${i}].` : '';
    const signer = input.submitters.find((s) => s.name || s.email);
    const values = variableValues(variables, {
      submitterValues: input.submitters.map((s) => s.values),
      submissionValues: input.values,
      metadata: input.metadata,
      builtIns: {
        signer_name: signer?.name ?? '',
        signer_email: signer?.email ?? '',
        signing_date: nowIso().slice(0, 10),
        submission_id: planned[i].submission.id === undefined ? '' : String(planned[i].submission.id),
        template_name: template.name,
      },
    });
    const problem = missingVariablesProblem(where, variables, values, optional);
    if (problem) problems.push(problem);
    return values;
  });
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  if (!ctx.browser) throw new Error('Creating submissions of a DOCX template needs the browser launcher in its context.');
  const fillings = valuesOf.map((values, i) => ({ values, submissionSlug: planned[i].submission.slug, where: inputs.length > 1 ? `submissions[${i}]: ` : '' }));
  return generateDocuments(ctx.files, ctx.browser, docx, fillings);
}
