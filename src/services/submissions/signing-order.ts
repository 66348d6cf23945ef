// Who may still act in a submission, whose turn it is and who must have signed before it completes
// (spec › Submitter states; rule 2 › witness): pure rules over the submitters' statuses, no storage.
import type { Submission, Submitter, TemplateRole } from '../../db/schema/index';
import type { SubmissionScope } from './submission-scope';

/** Submitter states that can still act (fill, sign, decline, be delegated). */
export const ACTIVE_SUBMITTER_STATES = ['waiting', 'sent', 'opened'] as const;

/** Whether the submitter can still act: they have not completed, declined or expired. */
export function isActive(submitter: Pick<Submitter, 'status'>): boolean {
  return (ACTIVE_SUBMITTER_STATES as readonly string[]).includes(submitter.status);
}

/**
 * Who is invited now (spec › Submitter states): nobody once someone declined; in parallel order every
 * waiting submitter; in sequential order the first one who has not completed, if still waiting.
 */
export function submittersToInvite(submission: Pick<Submission, 'submittersOrder'>, submitters: Submitter[]): Submitter[] {
  if (submitters.some((s) => s.status === 'declined')) return [];
  if (submission.submittersOrder === 'parallel') return submitters.filter((s) => s.status === 'waiting');
  const next = submitters.find((s) => s.status !== 'completed');
  return next && next.status === 'waiting' ? [next] : [];
}

/** Whether it is this submitter's turn (always, in parallel order). */
export function isTurnOf(submission: Pick<Submission, 'submittersOrder'>, submitters: Submitter[], submitter: Submitter): boolean {
  if (submission.submittersOrder === 'parallel') return true;
  const next = submitters.find((s) => s.status !== 'completed');
  return next?.id === submitter.id;
}

/**
 * Rule 2: the template's role named "Witness" (any case, spaces around ignored), if it has one. The
 * same rule in SQL: src/db/queries/submissions.ts › listCompletableSubmissions.
 */
export function witnessRoleOf<R extends TemplateRole>(roles: readonly R[]): R | undefined {
  return roles.find((r) => r.name.trim().toLowerCase() === 'witness');
}

/**
 * Rule 2: a template with a Witness role is finalized only once a witness has signed; until the signer
 * invites one (POST /s/<slug>/invite_witness) the submission stays pending.
 */
export function witnessed(scope: Pick<SubmissionScope, 'template'>, submitters: Submitter[]): boolean {
  const role = witnessRoleOf(scope.template.roles);
  return !role || submitters.some((s) => s.roleUuid === role.uuid && s.status === 'completed');
}
