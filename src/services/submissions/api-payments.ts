// Payment fields when the API completes a submitter (PUT /api/submitters/{id} with `completed: true`):
// a payment is collected only from the signer on the signing page (src/services/signing/field-payments.ts),
// so the API completes a submitter whose payment fields are paid, with their payment references, and
// refuses one with a payment still to make (docs/payments.md › Completing through the API).
import { paymentsOfSubmitter } from '../../db/queries/payments';
import type { Db } from '../../db/client';
import type { Submitter } from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import { hiddenFields, withFormulas } from '../../shared/form-rules';
import { fieldsOf, type SubmissionScope } from './submission-scope';

/** The references of the submitter's paid payment fields (hidden ones excepted), or 422 naming those unpaid. */
export async function paidReferencesForApi(
  db: Db,
  scope: SubmissionScope,
  submitter: Submitter,
  values: Record<string, unknown>,
): Promise<Record<string, string>> {
  const fields = fieldsOf(scope.template, submitter);
  const hidden = hiddenFields(fields, scope.template.preferences, withFormulas(fields, values));
  const payable = fields.filter((f) => f.type === 'payment' && !hidden.has(f.uuid));
  if (payable.length === 0) return {};
  const paid = new Map(
    (await paymentsOfSubmitter(db, submitter.id)).filter((p) => p.status === 'paid' && p.reference).map((p) => [p.fieldUuid, p.reference!]),
  );
  const unpaid = payable.filter((f) => !paid.has(f.uuid)).map((f) => `"${f.name}"`);
  if (unpaid.length) {
    throw unprocessable(
      `${unpaid.join(', ')} ${unpaid.length === 1 ? 'is a payment field' : 'are payment fields'} the signer pays on the signing page; the API can complete this submitter only once ${unpaid.length === 1 ? 'it is' : 'they are'} paid.`,
    );
  }
  return Object.fromEntries(payable.map((f) => [f.uuid, paid.get(f.uuid)!]));
}
