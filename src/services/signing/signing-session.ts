// A signer's view of their submission, reached by the slug in their link (the slug is the credential):
// which page they see, opening the form, and saving what they type (spec › What signers must be able to do).
import type { Db } from '../../db/client';
import { getAccount } from '../../db/queries/accounts';
import { transitionSubmitterStatement } from '../../db/queries/submissions';
import { submissionIdOfSlug } from '../../db/queries/submitter-members';
import type { Account, Submitter, SubmitterMember, TemplateField } from '../../db/schema/index';
import { asMember, membersOf } from '../submissions/any-of';
import type { MessageKey } from '../../shared/i18n/translator';
import { signerProblems, signerRefusal, type SignerProblem } from '../../lib/errors';
import { accountIdOfSlug } from '../submissions/links';
import { localDate, nowIso } from '../../lib/time';
import { outboxInsert } from '../events/outbox';
import { ChangeSet } from '../submissions/change-set';
import { checkFieldValue, isBlank } from '../../shared/field-values';
import { unknownUploads } from '../submissions/uploaded-files';
import { fieldsOf, findScope, submissionRef, type SubmissionScope } from '../submissions/submission-scope';
import { ACTIVE_SUBMITTER_STATES, isTurnOf } from '../submissions/signing-order';
import { formEvent, trail } from '../submissions/submission-events';
import type { StateContext } from '../submissions/submission-state';
import { fieldUpdatedData } from '../webhooks/payloads';
import { hiddenFields, withFormulas } from '../../shared/form-rules';

/**
 * `member`: the person of an any-one-of submitter whose link this is (issue 33 › 2); `submitter` then
 * carries their contact, link and disclosure over the submitter's row (any-of.ts › asMember).
 */
export type Signing = { account: Account; scope: SubmissionScope; submitter: Submitter; member?: SubmitterMember };

/**
 * The account a signing link belongs to, read from the slug (src/services/submissions/links.ts) with one
 * control lookup; null for a slug of no account.
 */
export async function accountOfSlug(control: Db, slug: string): Promise<Account | null> {
  const accountId = accountIdOfSlug(slug);
  return accountId === null ? null : ((await getAccount(control, accountId)) ?? null);
}

/** The signer behind `slug` on the account's shard `db`, with their submission, or null for an unknown slug. */
export async function loadSigning(db: Db, account: Account, slug: string): Promise<Signing | null> {
  // The link's submission and its scope in one batch: the submitter whose slug it is, else one of the
  // people of an any-one-of submitter (issue 33 › 2).
  const scope = await findScope(db, submissionIdOfSlug(db, account.id, slug));
  if (!scope) return null;
  const submitter = scope.submitters.find((s) => s.slug === slug);
  const byMember = submitter ? undefined : scope.members?.find((m) => m.slug === slug);
  const row = submitter ?? scope.submitters.find((s) => s.id === byMember?.submitterId);
  if (!row) return null;
  // Member 0's link is the submitter's own.
  const member = membersOf(scope.members, row).find((m) => m.slug === slug);
  if (!member) return { account, scope, submitter: row };
  const acting = {
    ...asMember(row, member),
    disclosureVersion: member.disclosureVersion,
    disclosureAcceptedAt: member.disclosureAcceptedAt,
  };
  return { account, scope, submitter: acting, member };
}

/**
 * Which page the link shows (spec › Submitter states, rule 4; decisions.md › Lifecycles): the form only
 * while the submitter can act and it is their turn.
 */
export type PageKind = 'form' | 'completed' | 'signed_by_other' | 'declined' | 'expired' | 'waiting' | 'unavailable';

export function pageKind({ scope, submitter, member }: Pick<Signing, 'scope' | 'submitter' | 'member'>): PageKind {
  // Another person of the same any-one-of group signed (or the submitter was completed through the API).
  if (submitter.status === 'completed' && member && member.completedAt === null) return 'signed_by_other';
  if (submitter.status === 'completed') return 'completed';
  if (submitter.status === 'declined') return 'declined';
  const { submission } = scope;
  if (
    submitter.status === 'expired' ||
    submission.status === 'expired' ||
    (submission.expireAt !== null && submission.expireAt <= nowIso())
  )
    return 'expired';
  if (submission.status !== 'pending') return 'unavailable';
  // Someone else declined: nobody can finish it any more.
  if (scope.submitters.some((s) => s.status === 'declined')) return 'unavailable';
  if (!isTurnOf(submission, scope.submitters, submitter)) return 'waiting';
  return 'form';
}

export function assertCanFill(signing: Signing): void {
  const kind = pageKind(signing);
  if (kind === 'form') return;
  const why: Record<Exclude<PageKind, 'form'>, [string, MessageKey]> = {
    completed: ['You have already completed this form.', 'signer_error.completed'],
    signed_by_other: ['Someone else in your group has already signed this form.', 'signer_error.signed_by_other'],
    declined: ['You declined this form.', 'signer_error.declined'],
    expired: ['This signing link has expired.', 'signer_error.expired'],
    waiting: ['It is not your turn yet: others sign before you.', 'signer_error.waiting'],
    unavailable: ['This form can no longer be signed.', 'signer_error.unavailable'],
  };
  throw signerRefusal(...why[kind]);
}

/** The fields the signer fills, with `datenow` included; other roles' fields never reach the page. */
export function signerFields(signing: Pick<Signing, 'scope' | 'submitter'>): TemplateField[] {
  return fieldsOf(signing.scope.template, signing.submitter);
}

/** The signer's values as the form opens: blank date-now fields hold the day it is in the account's time zone. */
export function openingValues(signing: Signing, at: string): Record<string, unknown> {
  const values = { ...signing.submitter.values };
  const today = localDate(at, signing.account.timezone);
  for (const field of signerFields(signing)) if (field.type === 'datenow' && isBlank(values[field.uuid])) values[field.uuid] = today;
  return values;
}

/**
 * Opening the form (spec: opening fires form.viewed and moves the submitter to `opened`): once, from
 * `waiting` or `sent`; date-now fields get today's date. A concurrent open that got there first wins
 * and this one changes nothing. The page's script asks for it once the form is on screen
 * (`POST /s/:slug/open`), not the page's GET, which email link scanners fetch too.
 */
export async function openForm(ctx: StateContext, signing: Signing): Promise<Submitter> {
  const { scope, submitter } = signing;
  if (submitter.status !== 'waiting' && submitter.status !== 'sent') return submitter;
  const at = nowIso();
  const values = openingValues(signing, at);
  const opened: Submitter = { ...submitter, status: 'opened', openedAt: at, values, updatedAt: at };
  const cs = new ChangeSet(ctx.db);
  cs.guarded(
    transitionSubmitterStatement(ctx.db, submitter.id, ['waiting', 'sent'], { status: 'opened', openedAt: at, values, updatedAt: at }),
  );
  const next = { ...scope, submitters: scope.submitters.map((s) => (s.id === submitter.id ? opened : s)) };
  trail(ctx, cs, next, submitter, 'opened', {}, at);
  formEvent(ctx, cs, 'form.viewed', next, opened);
  formEvent(ctx, cs, 'submitter.opened', next, opened);
  try {
    await cs.commit(ctx.messagesQueue);
  } catch (error) {
    if (error instanceof Error && 'status' in error && (error as { status: number }).status === 409) return submitter;
    throw error;
  }
  return opened;
}

/**
 * Checks values the signer sent against their fields: only their own, writable, non-formula fields,
 * each by the same rules as the page (field-values.ts). Throws 422 listing every problem.
 */
export function checkSignerValues(signing: Pick<Signing, 'scope' | 'submitter'>, input: Record<string, unknown>): Record<string, unknown> {
  const fields = new Map(signerFields(signing).map((f) => [f.uuid, f]));
  const problems: SignerProblem[] = [];
  const out: Record<string, unknown> = {};
  for (const [uuid, value] of Object.entries(input)) {
    const field = fields.get(uuid);
    if (!field) {
      problems.push({
        english: `${uuid} is not one of your fields.`,
        sentence: { key: 'signer_error.not_your_field', values: { field: uuid } },
      });
      continue;
    }
    // Filled by the server from the paid payment row on submit (services/signing/field-payments.ts):
    // whatever the page sends for it is ignored.
    if (field.type === 'payment') continue;
    if (field.readonly || field.formula) {
      problems.push({
        english: `Field "${field.name}" is ${field.readonly ? 'read-only' : 'computed by its formula'}.`,
        sentence: { key: field.readonly ? 'signer_error.read_only' : 'signer_error.computed', values: { name: field.name } },
      });
      continue;
    }
    // Required-ness is checked on submit; a draft may be blank.
    const checked = checkFieldValue({ ...field, required: false }, value);
    if (checked.ok) out[uuid] = checked.value;
    else problems.push({ english: checked.problem, sentence: checked.message });
  }
  if (problems.length) throw signerProblems(problems);
  return out;
}

/** The signer's values with formulas computed and the uuids of fields their conditions hide. */
export function resolvedValues(signing: Pick<Signing, 'scope' | 'submitter'>, values: Record<string, unknown>) {
  const fields = signerFields(signing);
  const computed = withFormulas(fields, values);
  return { values: computed, hidden: hiddenFields(fields, signing.scope.template.preferences, computed) };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * Saves values the signer typed (the page's autosave): field.updated per changed field with its old and
 * new value and whether the API had prefilled it; form.started on the first change. Returns the
 * submitter as saved.
 */
export async function saveValues(ctx: StateContext, signing: Signing, input: Record<string, unknown>): Promise<Submitter> {
  assertCanFill(signing);
  const { scope, submitter } = signing;
  const checked = checkSignerValues(signing, input);
  const strangers = await unknownUploads(ctx.db, submitter, signerFields(signing), checked);
  if (strangers.length) throw signerProblems(strangers);
  const { values } = resolvedValues(signing, { ...submitter.values, ...checked });
  const fields = new Map(signerFields(signing).map((f) => [f.uuid, f]));
  const changed = [...fields.values()].filter((f) => !same(submitter.values[f.uuid], values[f.uuid]));
  if (changed.length === 0) return submitter;
  // The people of an any-of group share one submitter row: what one of them types is not stored until
  // they submit, so no other member's page shows it (decisions.md › Order groups and any-of signers).
  if (signing.member) return { ...submitter, values };

  const at = nowIso();
  const startedAt = submitter.startedAt ?? at;
  const saved: Submitter = { ...submitter, values, startedAt, updatedAt: at };
  const cs = new ChangeSet(ctx.db);
  cs.guarded(transitionSubmitterStatement(ctx.db, submitter.id, ACTIVE_SUBMITTER_STATES, { values, startedAt, updatedAt: at }));
  if (!submitter.startedAt) {
    trail(ctx, cs, scope, submitter, 'started', {}, at);
    formEvent(ctx, cs, 'form.started', scope, saved);
  }
  const ref = submissionRef(scope.submission, scope.template);
  for (const field of changed) {
    cs.add(
      outboxInsert(ctx.db, {
        accountId: ctx.account.id,
        event: 'field.updated',
        data: fieldUpdatedData({
          submitter: {
            id: submitter.id,
            uuid: submitter.uuid,
            email: submitter.email ?? '',
            name: submitter.name ?? '',
            role: submitter.role,
          },
          submission: { id: ref.id, slug: ref.slug, template_id: ref.template_id },
          field: {
            uuid: field.uuid,
            name: field.name,
            type: field.type,
            old_value: submitter.values[field.uuid] ?? null,
            new_value: values[field.uuid] ?? null,
            was_prefilled: submitter.prefilled.includes(field.uuid),
          },
          changed_at: at,
        }),
      }),
    );
  }
  await cs.commit(ctx.messagesQueue);
  return saved;
}
