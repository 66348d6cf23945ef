// Edits through the API: drafts are editable in full; pending submissions take a new expire_at and
// metadata; submitters take contact details and values, a re-sent invitation, or completion.
import { checkBrandPreference } from '../branding/brands';
import { assertLevelWithinAccount, effectiveSignatureLevel, type SignatureLevel } from '../signature-levels/levels';
import { transitionSubmissionStatement, updateSubmitterStatement } from '../../db/queries/submissions';
import type { SubmissionPreferences, Submitter } from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import { nowIso, parseDateTime } from '../../lib/time';
import { ChangeSet } from './change-set';
import { checkValues, languageProblem, MAX_SUBMITTERS, phoneProblems, type SubmitterInput } from './submission-input';
import { canonicalLanguageTag } from '../../shared/i18n/locales';
import { fieldsOf, type SubmissionScope } from './submission-scope';
import { completeSubmitter, completionValues } from './complete-submitter';
import { isActive } from './signing-order';
import { assertCanComplete, remind, type StateContext } from './submission-state';
import { EMAIL, PHONE } from '../../shared/field-values';
import { unknownUploads } from './uploaded-files';
import { paidReferencesForApi } from './api-payments';

export type SubmissionEdit = {
  expire_at?: string | null;
  submitters_order?: 'sequential' | 'parallel';
  send_email?: boolean;
  metadata?: Record<string, unknown>;
  preferences?: SubmissionPreferences;
  submitters?: SubmitterInput[];
};

/** `ctx.account.signatureLevel`: the most a draft's `preferences.signature_level` may ask for. */
export async function updateSubmission(
  ctx: StateContext & { account: { signatureLevel: SignatureLevel } },
  scope: SubmissionScope,
  edit: SubmissionEdit,
): Promise<SubmissionScope> {
  const { submission } = scope;
  const draft = submission.status === 'draft';
  if (!draft && submission.status !== 'pending')
    throw unprocessable(`This submission is ${submission.status} and can no longer be edited.`);
  const draftOnly = (['submitters_order', 'send_email', 'preferences', 'submitters'] as const).filter((k) => edit[k] !== undefined);
  if (!draft && draftOnly.length) throw unprocessable(`${draftOnly.join(', ')} can only be changed while the submission is a draft.`);
  await checkBrandPreference(ctx.db, ctx.account.id, edit.preferences);
  assertLevelWithinAccount(edit.preferences, ctx.account.signatureLevel);
  const at = nowIso();
  const values: Record<string, unknown> = { updatedAt: at };
  if (edit.expire_at !== undefined) {
    // "" clears it, as null does; as at creation, where "" means no expiry.
    if (edit.expire_at === null || edit.expire_at === '') values.expireAt = null;
    else {
      const when = parseDateTime(edit.expire_at);
      if (when === null) throw unprocessable(`expire_at "${edit.expire_at}" is not a date-time such as 2026-01-31T12:00:00Z.`);
      if (Date.parse(when) <= Date.now()) throw unprocessable('expire_at must be in the future.');
      values.expireAt = when;
    }
  }
  if (edit.metadata !== undefined) values.metadata = edit.metadata;
  if (edit.submitters_order !== undefined) values.submittersOrder = edit.submitters_order;
  if (edit.send_email !== undefined) values.sendEmail = edit.send_email;
  if (edit.preferences !== undefined) {
    values.preferences = edit.preferences;
    // A draft has not been signed: its level follows its new preferences (fixed once it is sent).
    values.signatureLevel = effectiveSignatureLevel(
      edit.preferences.signature_level,
      scope.template.preferences.signature_level,
      ctx.account.signatureLevel,
    );
  }

  const cs = new ChangeSet(ctx.db);
  // Guarded by the state read: a draft sent meanwhile is not edited as a draft.
  cs.guarded(transitionSubmissionStatement(ctx.db, submission.id, [submission.status], values));
  let submitters = scope.submitters;
  if (edit.submitters) {
    submitters = editDraftSubmitters(scope, edit.submitters, at);
    for (const s of submitters)
      cs.add(
        updateSubmitterStatement(ctx.db, s.id, {
          email: s.email,
          name: s.name,
          phone: s.phone,
          externalId: s.externalId,
          values: s.values,
          prefilled: s.prefilled,
          metadata: s.metadata,
          sendEmail: s.sendEmail,
          sendSms: s.sendSms,
          sendWhatsapp: s.sendWhatsapp,
          requirePhone2fa: s.requirePhone2fa,
          updatedAt: at,
        }),
      );
  }
  await cs.commit(ctx.messagesQueue);
  return { ...scope, submission: { ...submission, ...values }, submitters };
}

/** A draft's submitters edited in place, matched to the existing ones by role (roles cannot change). */
function editDraftSubmitters(scope: SubmissionScope, inputs: SubmitterInput[], at: string): Submitter[] {
  if (inputs.length > MAX_SUBMITTERS) throw unprocessable(`submitters may list at most ${MAX_SUBMITTERS} submitters.`);
  const problems: string[] = [];
  const next = scope.submitters.map((s) => ({ ...s }));
  inputs.forEach((input, i) => {
    const label = `submitters[${i}]`;
    const target = input.role
      ? next.find((s) => s.role.toLowerCase() === input.role!.trim().toLowerCase())
      : input.uuid
        ? next.find((s) => s.roleUuid === input.uuid)
        : next[i];
    if (!target) {
      problems.push(
        `${label}: role "${input.role ?? input.uuid ?? i}" is not a submitter of this submission (${next.map((s) => `"${s.role}"`).join(', ')}).`,
      );
      return;
    }
    // A group and its people are fixed at creation (decisions.md › Order groups and any-of signers).
    if (input.order != null || input.emails != null)
      problems.push(`${label}: order and emails are set when the submission is created and cannot be edited.`);
    applyContact(target, input, label, problems);
    if (input.values !== undefined) {
      const values = checkValues(fieldsOf(scope.template, target), target.role, input.values, label, problems);
      target.values = { ...target.values, ...values };
      target.prefilled = [...new Set([...target.prefilled, ...Object.keys(values)])];
    }
    if (input.metadata !== undefined) target.metadata = input.metadata;
    if (input.send_email !== undefined) target.sendEmail = input.send_email;
    if (input.send_sms !== undefined) target.sendSms = input.send_sms;
    if (input.send_whatsapp !== undefined) target.sendWhatsapp = input.send_whatsapp;
    if (input.require_phone_2fa !== undefined) target.requirePhone2fa = input.require_phone_2fa;
    target.updatedAt = at;
  });
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  return next;
}

function applyContact(
  target: Submitter,
  input: Pick<SubmitterInput, 'email' | 'name' | 'phone' | 'external_id' | 'language'>,
  label: string,
  problems: string[],
) {
  if (input.email !== undefined) {
    const email = (input.email ?? '').trim();
    if (!email) problems.push(`${label}: email can't be blank.`);
    else if (!EMAIL.test(email)) problems.push(`${label}: email "${email}" is not a valid email address.`);
    else target.email = email.toLowerCase();
  }
  if (input.name !== undefined) {
    if (input.name && input.name.length > 255) problems.push(`${label}: name is too long (maximum is 255 characters).`);
    else target.name = input.name?.trim() || null;
  }
  if (input.phone !== undefined) {
    if (input.phone && !PHONE.test(input.phone.trim()))
      problems.push(`${label}: phone "${input.phone}" is not a phone number; use international format such as +14155550123.`);
    else target.phone = input.phone?.trim() || null;
  }
  if (input.external_id !== undefined) target.externalId = input.external_id;
  if (input.language !== undefined) {
    const problem = languageProblem(input.language);
    if (problem) problems.push(`${label}: ${problem}`);
    else target.language = canonicalLanguageTag(input.language);
  }
}

export type SubmitterEdit = SubmitterInput & { completed?: boolean };

/**
 * PUT /api/submitters/{id}: contact details and values while the submitter can still act; `send_email` /
 * `send_sms` true re-sends the invitation; `completed: true` completes them with their values.
 */
export async function updateSubmitter(
  ctx: StateContext,
  scope: SubmissionScope,
  submitter: Submitter,
  edit: SubmitterEdit,
): Promise<Submitter> {
  const active = isActive(submitter);
  const changesData = ['email', 'name', 'phone', 'values'].some((k) => edit[k as keyof SubmitterEdit] !== undefined);
  if (!active && edit.completed) throw unprocessable(`This submitter is already ${submitter.status}.`);
  // issue 18 › 3: a qualified signature is the signer's own authorization at the provider.
  if (edit.completed && scope.submission.signatureLevel === 'qes') {
    throw unprocessable(
      'At signature level qes a signer completes only by authorizing their signature at the QES provider from the signing page; the API cannot complete them.',
    );
  }
  if (!active && changesData) {
    throw unprocessable(`This submitter is ${submitter.status}; their details and values can no longer change.`);
  }
  const problems: string[] = [];
  const next: Submitter = { ...submitter };
  applyContact(next, edit, 'submitter', problems);
  let newValues: Record<string, unknown> = {};
  if (edit.values !== undefined)
    newValues = checkValues(fieldsOf(scope.template, submitter), submitter.role, edit.values, 'submitter', problems, { uploads: true });
  if (problems.length === 0)
    problems.push(
      ...(await unknownUploads(ctx.db, submitter, fieldsOf(scope.template, submitter), newValues)).map((p) => `submitter: ${p.english}`),
    );
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  next.values = { ...submitter.values, ...newValues };
  next.prefilled = [...new Set([...submitter.prefilled, ...Object.keys(newValues)])];
  if (edit.metadata !== undefined) next.metadata = edit.metadata;
  if (edit.send_email !== undefined) next.sendEmail = edit.send_email;
  if (edit.send_sms !== undefined) next.sendSms = edit.send_sms;
  if (edit.send_whatsapp !== undefined) next.sendWhatsapp = edit.send_whatsapp;
  if (edit.require_phone_2fa !== undefined) next.requirePhone2fa = edit.require_phone_2fa;
  // Only what this request changes is judged: a submitter created before the template asked for a
  // phone code keeps working for other edits (the code page then says the phone is missing).
  const phoneNeeds = phoneProblems(scope.template, next);
  if (phoneNeeds.length && (edit.phone !== undefined || edit.send_sms || edit.send_whatsapp || edit.require_phone_2fa))
    throw unprocessable(phoneNeeds.length === 1 ? phoneNeeds[0] : phoneNeeds);
  const at = nowIso();
  next.updatedAt = at;
  const scopeNow: SubmissionScope = { ...scope, submitters: scope.submitters.map((s) => (s.id === next.id ? next : s)) };
  // A completion that will be refused must not leave the other changes of the same request stored.
  let paid: Record<string, string> = {};
  if (edit.completed) {
    paid = await paidReferencesForApi(ctx.db, scopeNow, next, next.values);
    assertCanComplete(scopeNow, next, completionValues(scopeNow, next, paid, at, ctx.account.timezone));
  }

  const cs = new ChangeSet(ctx.db);
  cs.add(
    updateSubmitterStatement(ctx.db, submitter.id, {
      email: next.email,
      name: next.name,
      // A name the sender sets through the API is theirs again, fit for greetings.
      nameFromSigner: next.name === submitter.name && submitter.nameFromSigner,
      phone: next.phone,
      externalId: next.externalId,
      language: next.language,
      values: next.values,
      prefilled: next.prefilled,
      metadata: next.metadata,
      sendEmail: next.sendEmail,
      sendSms: next.sendSms,
      sendWhatsapp: next.sendWhatsapp,
      requirePhone2fa: next.requirePhone2fa,
      updatedAt: at,
    }),
  );
  await cs.commit(ctx.messagesQueue);

  if (edit.completed) {
    const done = await completeSubmitter(ctx, scopeNow, next, { via: 'api', values: paid });
    return done.submitters.find((s) => s.id === next.id)!;
  }
  if (
    (edit.send_email === true || edit.send_sms === true || edit.send_whatsapp === true) &&
    active &&
    scope.submission.status === 'pending'
  ) {
    return remind(ctx, scopeNow, next, 'invitation');
  }
  return next;
}
