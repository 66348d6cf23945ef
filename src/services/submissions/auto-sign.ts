// auto_sign (spec › Submission › create-time inputs): a submitter whose form the API already filled is
// signed for them with a generated signature, so the submission moves on without them opening a link.
import type { Submitter } from '../../db/schema/index';
import { completeSubmitter } from './complete-submitter';
import { isBlank } from '../../shared/field-values';
import { isActive, isTurnOf } from './signing-order';
import { fieldsOf, type SubmissionScope } from './submission-scope';
import type { StateContext } from './submission-state';

const SIGNATURE_TYPES = new Set(['signature', 'initials']);

/** The name a generated signature shows: the submitter's name, else the part of the email before "@". */
export function signatureName(submitter: Pick<Submitter, 'name' | 'email'>): string {
  const name = submitter.name?.trim();
  if (name) return name.slice(0, 255);
  return (submitter.email ?? '').split('@')[0].trim().slice(0, 255);
}

/** Initials of a name: the first letter of up to three of its words, upper-cased ("Zoë de Vries" → "ZDV"). */
export function initialsOf(name: string): string {
  return name
    .split(/[\s.-]+/u)
    .filter(Boolean)
    .slice(0, 3)
    .map((word) => [...word][0].toLocaleUpperCase())
    .join('');
}

/**
 * The values `submitter` completes with when the submission has `auto_sign`: their stored values with
 * every blank signature field set to their typed name and every blank initials field to their initials
 * (typed signatures are stamped in an oblique face; field-values.ts accepts typed text for both).
 * Null when a required field other than a signature or initials has no value (the signer must fill it),
 * when the role has no signature or initials field (nothing to sign for them) or has a payment field, or when there is no name
 * to sign with.
 */
export function autoSignValues(scope: Pick<SubmissionScope, 'template'>, submitter: Submitter): Record<string, unknown> | null {
  const fields = fieldsOf(scope.template, submitter);
  const signatureFields = fields.filter((f) => SIGNATURE_TYPES.has(f.type));
  if (signatureFields.length === 0) return null;
  const values = submitter.values ?? {};
  const unfilled = fields.filter(
    (f) =>
      f.required &&
      !f.readonly &&
      !f.formula &&
      !SIGNATURE_TYPES.has(f.type) &&
      // Date-now fields fill themselves at completion.
      f.type !== 'datenow' &&
      isBlank(values[f.uuid]),
  );
  if (unfilled.length) return null;
  // A payment is collected only from the signer on the page: such a submitter signs there as usual.
  if (fields.some((f) => f.type === 'payment')) return null;
  const name = signatureName(submitter);
  if (!name) return null;
  const signed: Record<string, unknown> = { ...values };
  for (const field of signatureFields) {
    if (!isBlank(signed[field.uuid])) continue;
    signed[field.uuid] = field.type === 'initials' ? initialsOf(name) : name;
  }
  return signed;
}

/**
 * auto_sign: completes, in signing order, every submitter whose form the API filled (autoSignValues), with
 * generated signatures for blank signature and initials fields. Runs after the submission is stored; a
 * submitter it cannot sign for simply signs on the page as usual.
 */
export async function applyAutoSign(ctx: StateContext, scope: SubmissionScope): Promise<SubmissionScope> {
  let current = scope;
  // A qes signer signs only by authorizing at the provider themselves (issue 18 › 3).
  if (scope.submission.signatureLevel === 'qes') return current;
  for (;;) {
    if (current.submission.status !== 'pending') return current;
    const next = current.submitters.find(
      (s) => isActive(s) && isTurnOf(current.submission, current.submitters, s) && autoSignValues(current, s),
    );
    if (!next) return current;
    current = await completeSubmitter({ ...ctx, ip: null, userAgent: null }, current, next, {
      via: 'auto_sign',
      values: autoSignValues(current, next)!,
      verificationMethod: 'auto_sign',
    });
  }
}
