// Creating submissions (spec › Creating a submission): every input checked against the template before
// anything is stored (submission-input.ts), then each submission — rows with their new links
// (new-submission-rows.ts), trail, events and invitations (creation-messages.ts) — in one batch.
import type { BatchStatement, Db } from '../../db/client';
import { brandingsOf } from '../../db/queries/brands';
import {
  countSubmissionsSince,
  submissionsSinceCountQuery,
  insertResolvedEventsStatements,
  insertSubmissionEventsStatements,
  insertSubmissionsStatements,
  reserveSubmissionIds,
  insertSubmittersStatements,
  submissionsBySlugsStatement,
  submittersBySubmissionSlugsStatement,
} from '../../db/queries/submissions';
import { messageInsertsForNewRows } from '../../db/queries/messages';
import { insertMembersStatements, membersBySubmissionSlugsStatement } from '../../db/queries/submitter-members';
import { findTemplateWithDocuments } from '../../db/queries/templates';
import type { Account, BrandingValues, Submission, Submitter, SubmitterMember, Template, TemplateDocument } from '../../db/schema/index';
import { notFound, unprocessable } from '../../lib/errors';
import { planOf } from '../../lib/plans';
import { nowIso } from '../../lib/time';
import { assertWithinPlanLimit, monthStartIso, planLimitGuard, planLimitReached, refusingPastPlanLimit } from '../plan-limits';
import type { BrowserLauncher } from '../rendering/browser-launches';
import { applyAutoSign } from './auto-sign';
import { ChangeSet } from './change-set';
import { announceSubmission, type LaterRows } from './creation-messages';
import {
  docxDocumentsOf,
  generateDocuments,
  missingVariablesProblem,
  variableValues,
  type DocxDocument,
  type GeneratedDocument,
} from './generated-documents';
import type { LinkDomain } from './links';
import { planSubmission, type Planned } from './new-submission-rows';
import { channelsFor, reachable } from './notifications';
import { submittersToInvite } from './signing-order';
import { brandIdsOf, checkSubmission, MAX_BULK, type SubmissionInput, type SubmitterLabel } from './submission-input';
import type { SubmissionScope } from './submission-scope';
import type { StateContext } from './submission-state';

export type CreateContext = StateContext & {
  account: Account;
  userId: number | null;
  upgradeUrl: string;
  /** Origin of the request (or APP_URL): stored as the signing links' base, the fallback of any custom domain. */
  requestBase: string;
  /** The account's active custom domains, for the links the invitations carry (chooseLinkDomain). */
  linkDomains?: readonly LinkDomain[];
  /** Where DOCX templates' documents are kept and their filled copies stored, and the browser that prints them. */
  files?: R2Bucket;
  browser?: BrowserLauncher;
  /** The request's audit row, as a statement for the create's own batch, given the new submissions' slugs. */
  auditStatement?: (slugs: string[]) => BatchStatement;
  /** The account's submissions this month, read beside the template (submissionsThisMonth); read here when absent. */
  usedThisMonth?: number;
};

export type TemplateForSubmissions = { template: Template; documents: TemplateDocument[] };

/** What checking inputs reads: the account's brands and the template's DOCX documents. */
export type CheckContext = Pick<CreateContext, 'db' | 'account' | 'files'>;

/** What inputs are checked against besides the template: the brands they name and the DOCX documents' variables. */
type CheckBasis = { brands: ReadonlyMap<number, BrandingValues>; docx: DocxDocument[]; variables: Set<string> };

async function checkBasisOf(ctx: CheckContext, source: TemplateForSubmissions, inputs: SubmissionInput[]): Promise<CheckBasis> {
  const [brands, docx] = await Promise.all([
    brandingsOf(ctx.db, ctx.account.id, brandIdsOf(source.template, inputs)),
    ctx.files ? docxDocumentsOf(ctx.files, source.documents) : [],
  ]);
  return { brands, docx, variables: new Set(docx.flatMap((d) => d.variables)) };
}

/** A DOCX template's variable values for one input (decisions.md › Documents in). */
function docxValuesOf(template: Template, variables: string[], input: SubmissionInput, submissionId: number | undefined) {
  const signer = input.submitters.find((s) => s.name || s.email);
  return variableValues(variables, {
    submitterValues: input.submitters.map((s) => s.values),
    submissionValues: input.values,
    metadata: input.metadata,
    builtIns: {
      signer_name: signer?.name ?? '',
      signer_email: signer?.email ?? '',
      signing_date: nowIso().slice(0, 10),
      submission_id: submissionId === undefined ? '' : String(submissionId),
      template_name: template.name,
    },
  });
}

function optionalVariablesOf(template: Template): string[] {
  return (template.preferences.optional_variables as string[] | undefined) ?? [];
}

/**
 * Every problem `createSubmissions` would refuse each input for, input by input, storing nothing: a
 * bulk send checks its rows so (a dry run, the upload, each chunk), and creates the rows without any.
 */
export async function problemsOfEach(
  ctx: CheckContext,
  source: TemplateForSubmissions,
  inputs: SubmissionInput[],
  where: (index: number) => string,
  labelOf?: SubmitterLabel,
): Promise<string[][]> {
  const { template } = source;
  const basis = await checkBasisOf(ctx, source, inputs);
  const variables = [...basis.variables];
  const at = nowIso();
  return inputs.map((input, i) => {
    const problems: string[] = [];
    checkSubmission(template, input, where(i), problems, at, basis.brands, ctx.account.signatureLevel, basis.variables, labelOf);
    const missing = variables.length
      ? missingVariablesProblem(where(i), variables, docxValuesOf(template, variables, input, undefined), optionalVariablesOf(template))
      : null;
    if (missing) problems.push(missing);
    return problems;
  });
}

/**
 * Statements stored in the same batch as the submissions (a bulk send's chunk): `claim`, a guarded
 * UPDATE, fails the whole batch when it changes no row (the chunk was stored already), and `records`
 * names the planned submissions by slug once their rows are in.
 */
export type Alongside = { claim: BatchStatement; records: (slugs: string[]) => BatchStatement[] };

export async function templateForSubmissions(db: Db, accountId: number, ref: string | number | undefined): Promise<TemplateForSubmissions> {
  if (ref === undefined || ref === null || ref === '') throw unprocessable('template_id is required.');
  const { template, documents } = await findTemplateWithDocuments(db, accountId, ref);
  if (!template) throw notFound('Template');
  if (template.archivedAt) throw unprocessable(`Template ${template.publicId} is archived; restore it before sending it for signing.`);
  if (documents.length === 0) throw unprocessable(`Template ${template.publicId} has no documents to sign.`);
  return { template, documents };
}

/**
 * The account's submissions this month when its plan limits them, else undefined: the early check of
 * createSubmissions, read by a request at the same time as its template rather than one round trip after.
 */
export function submissionsThisMonth(db: Db, account: Pick<Account, 'id' | 'plan'>): Promise<number | undefined> {
  if (!Number.isFinite(planOf(account.plan).limits.submissionsPerMonth)) return Promise.resolve(undefined);
  return countSubmissionsSince(db, account.id, monthStartIso());
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
  alongside?: Alongside,
): Promise<SubmissionScope[]> {
  const { template, documents } = source;
  if (inputs.length > MAX_BULK) throw unprocessable(`submissions may list at most ${MAX_BULK} submissions per request.`);
  if (Number.isFinite(planOf(ctx.account.plan).limits.submissionsPerMonth)) {
    const used = ctx.usedThisMonth ?? (await countSubmissionsSince(ctx.db, ctx.account.id, monthStartIso()));
    assertWithinPlanLimit(ctx.account, 'submissionsPerMonth', used, ctx.upgradeUrl, inputs.length);
  }

  const at = nowIso();
  const problems: string[] = [];
  const linkBase = ctx.requestBase.replace(/\/+$/, '');
  const { brands, docx, variables } = await checkBasisOf(ctx, source, inputs);
  const from = { account: ctx.account, userId: ctx.userId, template, documents, origin, linkBase };
  const planned: Planned[] = inputs.map((input, i) => {
    const where = inputs.length > 1 ? `submissions[${i}].` : '';
    const checked = checkSubmission(template, input, where, problems, at, brands, ctx.account.signatureLevel, variables);
    return planSubmission(
      from,
      input,
      checked,
      brands.get(Number(input.preferences?.brand_id ?? template.preferences.brand_id)) ?? null,
      at,
    );
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
  if (alongside) cs.guarded(alongside.claim);
  if (Number.isFinite(planOf(ctx.account.plan).limits.submissionsPerMonth)) {
    cs.add(
      planLimitGuard(
        ctx.db,
        ctx.account,
        'submissionsPerMonth',
        submissionsSinceCountQuery(ctx.db, ctx.account.id, monthStartIso()),
        planned.length,
      ),
    );
  }
  // Every table's rows go in multi-row inserts (row-inserts.ts), each after the rows it names: the
  // submissions, their submitters and members, then the invitations, trail entries and outbox events.
  const stored = planned.map((plan) => withInvitedSent(plan, at));
  const later: LaterRows = { messages: [], trail: [], events: [] };
  for (const { plan, submitters, invited } of stored) {
    const data = { source: plan.submission.source };
    const row = { accountId: ctx.account.id, action: 'created' as const, ip: ctx.ip, userAgent: ctx.userAgent, data, at };
    later.trail.push({ ref: { submissionSlug: plan.submission.slug }, submitterRef: null, row });
    announceSubmission(ctx, later, template, plan, submitters, invited, at);
  }
  cs.add(
    ...insertSubmissionsStatements(
      ctx.db,
      planned.map((plan) => plan.submission),
    ),
    ...insertSubmittersStatements(
      ctx.db,
      stored.flatMap(({ plan, submitters }) => submitters.map((row) => ({ submissionSlug: plan.submission.slug, row }))),
    ),
    ...insertMembersStatements(
      ctx.db,
      planned.flatMap((plan) => plan.members),
    ),
  );
  for (const statement of messageInsertsForNewRows(ctx.db, later.messages)) cs.addMessage(statement);
  cs.add(...insertSubmissionEventsStatements(ctx.db, later.trail), ...insertResolvedEventsStatements(ctx.db, ctx.account.id, later.events));
  if (alongside) cs.add(...alongside.records(planned.map((p) => p.submission.slug)));
  const slugs = planned.map((p) => p.submission.slug);
  // The request's trail row commits with what it records (its middleware then writes none).
  if (ctx.auditStatement) cs.add(ctx.auditStatement(slugs));
  // Read back last in the same batch: the rows as stored (ids, defaults), without another round trip.
  const read = {
    submissions: cs.addRead(submissionsBySlugsStatement(ctx.db, slugs)),
    submitters: cs.addRead(submittersBySubmissionSlugsStatement(ctx.db, slugs)),
    members: cs.addRead(membersBySubmissionSlugsStatement(ctx.db, slugs)),
  };
  await refusingPastPlanLimit(
    () => cs.commit(ctx.messagesQueue),
    () => planLimitReached(ctx.account, 'submissionsPerMonth', ctx.upgradeUrl),
  );
  // After the commit: a refused batch leaves no files. Until they are written, the template's rendering shows.
  await Promise.all(generated.map((g) => ctx.files!.put(g.key, g.bytes, { httpMetadata: { contentType: 'application/pdf' } })));

  const rows = cs.rowsOf<Submission>(read.submissions);
  const submitters = cs.rowsOf<Submitter>(read.submitters);
  const members = cs.rowsOf<SubmitterMember>(read.members);
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
  const submittersOf = groupBy(submitters, (s) => s.submissionId);
  const membersOf = groupBy(members, (m) => m.submissionId);
  const scopes = rows.map((submission, i) => ({
    submission,
    submitters: submittersOf.get(submission.id) ?? [],
    members: membersOf.get(submission.id) ?? [],
    template: scopeTemplate,
    brand: planned[i].brand,
  }));
  const out: SubmissionScope[] = [];
  for (const scope of scopes)
    out.push(scope.submission.autoSign && scope.submission.status === 'pending' ? await applyAutoSign(ctx, scope) : scope);
  return out;
}

/** `items` by `key`, each group in the order of `items` (a lookup per submission instead of a filter). */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** The submitter rows of `plan` as stored: who is invited now is stored as `sent` directly. */
function withInvitedSent(plan: Planned, at: string) {
  const asRows = plan.submitters.map((s, i) => ({ ...s, id: -(i + 1), submissionId: 0 }) as Submitter);
  const invited = new Set(
    plan.submission.status === 'draft'
      ? []
      : submittersToInvite(plan.submission, asRows)
          .filter((s) => reachable(channelsFor(plan.submission, s)))
          .map((s) => s.slug),
  );
  const submitters = plan.submitters.map((s) => (invited.has(s.slug) ? { ...s, status: 'sent' as const, sentAt: at } : s));
  return { plan, submitters, invited };
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
  const optional = optionalVariablesOf(template);
  const problems: string[] = [];
  const valuesOf = inputs.map((input, i) => {
    const where = inputs.length > 1 ? `submissions[${i}].` : '';
    const values = docxValuesOf(template, variables, input, planned[i].submission.id);
    const problem = missingVariablesProblem(where, variables, values, optional);
    if (problem) problems.push(problem);
    return values;
  });
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  if (!ctx.browser) throw new Error('Creating submissions of a DOCX template needs the browser launcher in its context.');
  const fillings = valuesOf.map((values, i) => ({
    values,
    submissionSlug: planned[i].submission.slug,
    where: inputs.length > 1 ? `submissions[${i}]: ` : '',
  }));
  return generateDocuments(ctx.files, ctx.browser, docx, fillings);
}
