// The signer identity a completion reports (spec › Events: signing.complete follows form.completed):
// every aes and qes signer, and an ses signer who proved control of their email with a code
// (src/services/signature-levels/signer-identity.ts).
import { latestVerification } from '../../db/queries/signing';
import type { Account, Submitter } from '../../db/schema/index';
import { signerIdentity, verifiedByCode } from '../signature-levels/signer-identity';
import type { ChangeSet } from './change-set';
import { formEvent, type EventContext } from './submission-events';
import type { SubmissionScope } from './submission-scope';

/**
 * Adds signing.complete, with the submission's documents, for `completed` (the submitter as this
 * completion leaves them) when their signature is identity-bound; `scope` is the submission after it.
 */
export async function signingCompleteEvent(
  ctx: EventContext & { account: Pick<Account, 'signatureProvider'> },
  cs: ChangeSet,
  scope: SubmissionScope,
  completed: Submitter,
): Promise<void> {
  const verification = verifiedByCode(completed.verificationMethod) ? await latestVerification(ctx.db, completed.id) : undefined;
  const identity = signerIdentity(scope.submission.signatureLevel, ctx.account, completed, verification?.verifiedAt ?? undefined);
  if (identity) formEvent(ctx, cs, 'signing.complete', scope, completed, true, identity);
}
