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

type OrderRules = Pick<Submission, 'submittersOrder'>;
type Placed = Pick<Submitter, 'id' | 'status' | 'position' | 'order'>;

/**
 * The group a submitter signs in (issue 33 › 1): its `order` when it has one; otherwise the submission's
 * `submitters_order` as before groups existed: each their own step in sequential order, one step for all
 * in parallel order. The same number signs in parallel; groups go in ascending order.
 */
export function groupOf(submission: OrderRules, submitter: Pick<Submitter, 'position' | 'order'>): number {
  if (submitter.order !== null && submitter.order !== undefined) return submitter.order;
  return submission.submittersOrder === 'parallel' ? 0 : submitter.position;
}

/** The group whose turn it is: the lowest with someone who has not completed; undefined when all have. */
function currentGroup(submission: OrderRules, submitters: readonly Placed[]): number | undefined {
  const open = submitters.filter((s) => s.status !== 'completed').map((s) => groupOf(submission, s));
  return open.length ? Math.min(...open) : undefined;
}

/**
 * Who is invited now (spec › Submitter states; issue 33 › 1): nobody once someone declined; otherwise
 * the waiting submitters of the current group (in parallel order all of them, in sequential order the
 * first one who has not completed).
 */
export function submittersToInvite<S extends Placed>(submission: OrderRules, submitters: S[]): S[] {
  if (submitters.some((s) => s.status === 'declined')) return [];
  const group = currentGroup(submission, submitters);
  return submitters.filter((s) => s.status === 'waiting' && groupOf(submission, s) === group);
}

/** Whether it is this submitter's turn: their group is the current one (always, in parallel order without groups). */
export function isTurnOf(submission: OrderRules, submitters: readonly Placed[], submitter: Placed): boolean {
  if (submission.submittersOrder === 'parallel' && submitters.every((s) => s.order === null || s.order === undefined)) return true;
  return groupOf(submission, submitter) === currentGroup(submission, submitters);
}

/** The submitters of earlier groups who have not completed: whom a submitter whose turn it is not waits for. */
export function waitingFor<S extends Placed>(submission: OrderRules, submitters: S[], submitter: Placed): S[] {
  const mine = groupOf(submission, submitter);
  return submitters.filter((s) => s.status !== 'completed' && groupOf(submission, s) < mine);
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
