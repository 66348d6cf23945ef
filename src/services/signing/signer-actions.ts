// What a signer can do besides filling fields: submit, decline, delegate to someone else (rule 1) and
// invite a witness (rule 2). Each is one guarded ChangeSet through the submission state machine.
import { paidFieldValues } from './field-payments';
import {
  acceptDisclosureStatement,
  countSubmitterTrail,
  insertSubmitterStatement,
  transitionSubmitterStatement,
} from '../../db/queries/submissions';
import { deleteVerificationsOf } from '../../db/queries/signing';
import { acceptMemberDisclosureStatement } from '../../db/queries/submitter-members';
import { insertAuditEventStatement } from '../../db/queries/audit-events';
import type { Submitter } from '../../db/schema/index';
import { signerProblems, signerRefusal, unprocessable, type SignerProblem } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { outboxInsert } from '../events/outbox';
import { ChangeSet } from '../submissions/change-set';
import { isEmailAddress } from '../../shared/field-values';
import { newSlug } from '../submissions/links';
import { loadScope, payloadSubmitter, submissionRef, templateRef, type SubmissionScope } from '../submissions/submission-scope';
import { completeSubmitter } from '../submissions/complete-submitter';
import { ACTIVE_SUBMITTER_STATES, isActive, isTurnOf, witnessRoleOf } from '../submissions/signing-order';
import { trail } from '../submissions/submission-events';
import { assertSubmissionOpen, declineSubmitter, invite, type StateContext } from '../submissions/submission-state';
import { formEventData } from '../webhooks/payloads';
import { assertCanFill, resolvedValues, saveValues, type Signing } from './signing-session';
import { disclosureIn } from './consent-disclosure';
import type { Locale } from '../../shared/i18n/locales';

/** What a submit completes with: the signer as saved, their resolved values and the hidden fields. */
export type SubmittedForm = { scope: SubmissionScope; submitter: Submitter; values: Record<string, unknown>; hiddenFields: string[] };

/**
 * A submit's first half, shared by every level: the last values saved (field.updated as usual), formulas
 * computed, fields hidden by conditions cleared, payment fields set from their paid rows.
 */
export async function submittedValues(ctx: StateContext, signing: Signing, input: Record<string, unknown>): Promise<SubmittedForm> {
  assertCanFill(signing);
  // ESIGN §101(c): consent to electronic records comes before the electronic signature.
  if (!signing.submitter.disclosureAcceptedAt) {
    throw signerRefusal(
      'Accept the electronic records disclosure on the signing page before signing: tick "I agree" and continue.',
      'signer_error.disclosure_first',
    );
  }
  const saved = await saveValues(ctx, signing, input);
  const { values, hidden } = resolvedValues(signing, saved.values);
  for (const uuid of hidden) values[uuid] = null;
  // A payment field's value is its payment reference, set here from the paid row, never by the signer;
  // paid for the amount the values just saved give (a formula's inputs may have changed since paying).
  Object.assign(values, await paidFieldValues(ctx.db, { ...signing, submitter: saved }, hidden));
  const scope = { ...signing.scope, submitters: signing.scope.submitters.map((s) => (s.id === saved.id ? saved : s)) };
  return { scope, submitter: saved, values, hiddenFields: [...hidden] };
}

/**
 * Submits the form: submittedValues, then the submitter completes (form.completed, submitter.completed,
 * the next signer invited or the submission completed). A qes signer goes to their provider instead
 * (src/services/sealing/qes-signing-flow.ts).
 */
export async function submitForm(ctx: StateContext, signing: Signing, input: Record<string, unknown>): Promise<SubmissionScope> {
  if (signing.scope.submission.signatureLevel === 'qes')
    throw unprocessable('At signature level qes the signature is authorized at the QES provider; submit from the signing page.');
  const { scope, submitter, values, hiddenFields } = await submittedValues(ctx, signing, input);
  return completeSubmitter(ctx, scope, submitter, { values, via: 'signing_page', hiddenFields, member: signing.member });
}

export async function declineForm(ctx: StateContext, signing: Signing, reason: string): Promise<SubmissionScope> {
  const kind = signing.submitter.status;
  if (!isActive(signing.submitter))
    throw signerRefusal(
      `You have already ${kind === 'completed' ? 'completed' : kind} this form.`,
      kind === 'completed' ? 'signer_error.completed' : kind === 'declined' ? 'signer_error.declined' : 'signer_error.unavailable',
    );
  return declineSubmitter(ctx, signing.scope, signing.submitter, reason);
}

export type Person = { email: string; name: string };

/** Delegations along one form's chain, and witness invitations by one signer (issue 21 › 5). */
export const MAX_DELEGATIONS = 5;
export const MAX_WITNESS_INVITATIONS = 5;

/** The longest name a signer may give a delegate or witness. */
const MAX_PERSON_NAME = 255;

/** Checks a person's email and name from a signer's request; returns them trimmed. */
export function checkPerson(input: Person): Person {
  const email = input.email.trim();
  const name = input.name.trim();
  const problems: SignerProblem[] = [];
  if (!isEmailAddress(email))
    problems.push({ english: 'email must be an email address.', sentence: { key: 'signer_error.email_invalid' } });
  if (name.length > MAX_PERSON_NAME)
    problems.push({
      english: `name must be at most ${MAX_PERSON_NAME} characters.`,
      sentence: { key: 'signer_error.name_too_long', values: { max: MAX_PERSON_NAME } },
    });
  if (problems.length) throw signerProblems(problems);
  return { email, name };
}

/** The values the API prefilled: a delegate starts from those, never from what the delegator typed. */
function prefilledValues(submitter: Submitter): Record<string, unknown> {
  return Object.fromEntries(Object.entries(submitter.values).filter(([uuid]) => submitter.prefilled.includes(uuid)));
}

/**
 * Rule 1: while waiting, sent or opened, the signer hands their form to someone else. The submitter row
 * takes the new person and a fresh slug (the old link stops working), starts over from `waiting` with
 * the prefilled values, and is invited afresh when it is their turn. form.delegated carries
 * `delegated_to`.
 */
export async function delegateForm(ctx: StateContext, signing: Signing, to: Person): Promise<Submitter> {
  const { scope, submitter } = signing;
  if (!isActive(submitter)) {
    throw signerRefusal(
      `Only a form that is waiting, sent or opened can be delegated; this one is ${submitter.status}.`,
      'signer_error.delegate_finished',
    );
  }
  // A group's form is the group's: any other person named in it can sign instead.
  if (signing.member)
    throw signerRefusal(
      'This form was sent to a group of people, any one of whom can sign it; it cannot be delegated.',
      'signer_error.delegate_group',
    );
  assertSubmissionOpen(scope.submission);
  const person = checkPerson(to);
  if (person.email.toLowerCase() === (submitter.email ?? '').toLowerCase())
    throw signerRefusal('Delegate to someone else: that is your own email address.', 'signer_error.delegate_self');
  // The row keeps its id along the chain, so its `delegated` trail entries count the chain's length.
  if ((await countSubmitterTrail(ctx.db, scope.submission.id, submitter.id, 'delegated')) >= MAX_DELEGATIONS) {
    throw signerRefusal(
      `This form has already been delegated ${MAX_DELEGATIONS} times, the most allowed; sign it yourself or ask the sender to change the signer.`,
      'signer_error.delegate_limit',
      { max: MAX_DELEGATIONS },
    );
  }
  const at = nowIso();
  const changes = {
    email: person.email,
    name: person.name || null,
    nameFromSigner: true,
    slug: newSlug(ctx.account.id),
    status: 'waiting' as const,
    values: prefilledValues(submitter),
    sentAt: null,
    openedAt: null,
    startedAt: null,
    verificationMethod: null,
    // The delegate reads and accepts the disclosure themselves.
    disclosureVersion: null,
    disclosureAcceptedAt: null,
    updatedAt: at,
  };
  const delegated: Submitter = { ...submitter, ...changes };
  const cs = new ChangeSet(ctx.db);
  cs.guarded(transitionSubmitterStatement(ctx.db, submitter.id, ACTIVE_SUBMITTER_STATES, changes));
  // A browser verified for the delegator is not verified for the delegate.
  cs.add(deleteVerificationsOf(ctx.db, submitter.id));
  const next = { ...scope, submitters: scope.submitters.map((s) => (s.id === submitter.id ? delegated : s)) };
  trail(ctx, cs, scope, submitter, 'delegated', { from: submitter.email, to: person.email }, at);
  cs.add(
    outboxInsert(ctx.db, {
      accountId: ctx.account.id,
      event: 'form.delegated',
      data: formEventData({
        submitter: payloadSubmitter(submitter),
        submission: submissionRef(scope.submission, scope.template),
        template: templateRef(scope.template),
        delegated_to: { email: person.email, name: person.name },
      }),
    }),
  );
  const result = isTurnOf(scope.submission, next.submitters, delegated) ? invite(ctx, cs, next, delegated, at) : delegated;
  await cs.commit(ctx.messagesQueue);
  return result;
}

/**
 * Rule 2: after completing, a signer invites a witness: the template needs a role named "Witness" and
 * the witness's email must differ from the signer's. The witness fills that role's submitter (created
 * when the submission has none yet) and the submission completes only once they have signed.
 */
export async function inviteWitness(ctx: StateContext, signing: Signing, to: Person): Promise<Submitter> {
  const { scope, submitter } = signing;
  if (submitter.status !== 'completed')
    throw signerRefusal('Complete your form before inviting a witness.', 'signer_error.witness_complete_first');
  const role = witnessRoleOf(scope.template.roles);
  if (!role) throw signerRefusal('This document has no Witness role, so a witness cannot be invited.', 'signer_error.witness_no_role');
  const person = checkPerson(to);
  if (person.email.toLowerCase() === (submitter.email ?? '').toLowerCase())
    throw signerRefusal("The witness's email must differ from yours.", 'signer_error.witness_self');
  if (scope.submission.status === 'completed')
    throw signerRefusal('This submission is already completed; a witness can no longer be added.', 'signer_error.witness_too_late');
  assertSubmissionOpen(scope.submission);
  const existing = scope.submitters.find((s) => s.roleUuid === role.uuid && s.id !== submitter.id);
  if (existing && !isActive(existing)) {
    throw signerRefusal(
      `The witness has already ${existing.status === 'completed' ? 'signed' : existing.status}.`,
      existing.status === 'completed' ? 'signer_error.witness_signed' : 'signer_error.witness_declined',
    );
  }
  if ((await countSubmitterTrail(ctx.db, scope.submission.id, submitter.id, 'witness_invited')) >= MAX_WITNESS_INVITATIONS) {
    throw signerRefusal(
      `You have already invited a witness ${MAX_WITNESS_INVITATIONS} times, the most allowed; ask the sender if the witness must change again.`,
      'signer_error.witness_limit',
      { max: MAX_WITNESS_INVITATIONS },
    );
  }
  const at = nowIso();
  let current = scope;
  let witness = existing;
  if (!witness) {
    // No submitter for the role yet: add one after everyone else, then invite it like any other.
    const slug = newSlug(ctx.account.id);
    await ctx.db.batch([
      insertSubmitterStatement(ctx.db, scope.submission.slug, {
        accountId: ctx.account.id,
        uuid: crypto.randomUUID(),
        slug,
        roleUuid: role.uuid,
        role: role.name,
        position: Math.max(...scope.submitters.map((s) => s.position)) + 1,
        // In a submission signed in groups, the witness signs in a group of their own after the last one.
        order: scope.submitters.some((s) => s.order !== null) ? Math.max(...scope.submitters.map((s) => s.order ?? 0)) + 1 : null,
        email: person.email,
        name: person.name || null,
        nameFromSigner: true,
        values: {},
        metadata: {},
      }),
    ]);
    current = { ...(await loadScope(ctx.db, scope.submission)), linkDomain: scope.linkDomain };
    witness = current.submitters.find((s) => s.slug === slug)!;
  }
  // A witness listed at creation is replaced by the person the signer names: fresh link, invited afresh.
  const changes = existing
    ? {
        email: person.email,
        name: person.name || null,
        nameFromSigner: true,
        slug: newSlug(ctx.account.id),
        status: 'waiting' as const,
        values: prefilledValues(existing),
        sentAt: null,
        openedAt: null,
        startedAt: null,
        verificationMethod: null,
        disclosureVersion: null,
        disclosureAcceptedAt: null,
        updatedAt: at,
      }
    : { email: person.email, name: person.name || null, nameFromSigner: true, updatedAt: at };
  const updated: Submitter = { ...witness, ...changes };
  const cs = new ChangeSet(ctx.db);
  cs.guarded(transitionSubmitterStatement(ctx.db, witness.id, ACTIVE_SUBMITTER_STATES, changes));
  if (existing) cs.add(deleteVerificationsOf(ctx.db, witness.id));
  const next = { ...current, submitters: current.submitters.map((s) => (s.id === witness!.id ? updated : s)) };
  trail(ctx, cs, next, submitter, 'witness_invited', { witness: person.email }, at);
  const invited = isTurnOf(next.submission, next.submitters, updated) ? invite(ctx, cs, next, updated, at) : updated;
  await cs.commit(ctx.messagesQueue);
  return invited;
}

/**
 * The signer accepts the electronic-records disclosure (issue 18 › 5): recorded once per signer — the
 * version and when on the submitter, and a `disclosure_accepted` trail row with the version's SHA-256,
 * the client address and user agent, which the sealed audit trail prints, and an account audit event
 * (`submitter.disclosure_accepted`, with the version and SHA-256 in `details`). Accepting again changes
 * nothing; an outdated version (a page loaded before the text changed) is refused.
 */
/** The request an acceptance arrived with, for its account audit event (the path without the slug). */
export type DisclosureRequest = { requestId: string; method: string; path: string };

/** Action of the account audit event (GET /api/audit_events) a signer's acceptance writes. */
export const DISCLOSURE_AUDIT_ACTION = 'submitter.disclosure_accepted';

export async function acceptDisclosure(
  ctx: StateContext,
  signing: Signing,
  version: string,
  request: DisclosureRequest,
  language: Locale,
): Promise<{ version: string; language: Locale; acceptedAt: string }> {
  assertCanFill(signing);
  const { submitter } = signing;
  if (submitter.disclosureAcceptedAt && submitter.disclosureVersion)
    return { version: submitter.disclosureVersion, language, acceptedAt: submitter.disclosureAcceptedAt };
  // Versioned per language (issue 31 › 3): the version and hash of the text in the language shown.
  const { disclosure, sha256 } = await disclosureIn(language);
  if (version !== disclosure.version) {
    throw signerRefusal(
      `Disclosure version ${version} is not the current one (${disclosure.version}); reload the page and read the current disclosure.`,
      'signer_error.disclosure_outdated',
      { version, current: disclosure.version },
    );
  }
  const at = nowIso();
  const cs = new ChangeSet(ctx.db);
  // Guarded on "not yet accepted": of two racing acceptances one records, the other changes nothing.
  // A member of an any-of group accepts for themselves; the signer's acceptance is copied on completion.
  cs.guarded(
    signing.member
      ? acceptMemberDisclosureStatement(ctx.db, signing.member.id, disclosure.version, at)
      : acceptDisclosureStatement(ctx.db, submitter.id, disclosure.version, at),
  );
  trail(ctx, cs, signing.scope, submitter, 'disclosure_accepted', { version: disclosure.version, sha256, language }, at);
  // The account's audit trail too (issue 28 › 9): consent to electronic records is evidence an account
  // keeps for its 7 years, whatever happens to the submission. In the same batch, so once per signer.
  cs.add(
    insertAuditEventStatement(ctx.db, {
      accountId: ctx.account.id,
      userId: null,
      accessTokenId: null,
      actor: `signer:${submitter.email ?? submitter.uuid}`.slice(0, 120),
      action: DISCLOSURE_AUDIT_ACTION,
      resourceType: 'submitter',
      resourceId: String(submitter.id),
      method: request.method,
      path: request.path,
      status: 200,
      ip: ctx.ip ?? null,
      userAgent: ctx.userAgent?.slice(0, 512) ?? null,
      requestId: request.requestId,
      details: {
        submission_id: signing.scope.submission.id,
        disclosure_version: disclosure.version,
        disclosure_sha256: sha256,
        disclosure_language: language,
        accepted_at: at,
      },
      createdAt: at,
    }),
  );
  try {
    await cs.commit(ctx.messagesQueue, () => new DisclosureAlreadyAccepted());
  } catch (error) {
    if (!(error instanceof DisclosureAlreadyAccepted)) throw error;
    return { version: disclosure.version, language, acceptedAt: at };
  }
  return { version: disclosure.version, language, acceptedAt: at };
}

class DisclosureAlreadyAccepted extends Error {}
