// The billing usage a completion records (issue 18 › 6): the signature's level and price, per submitter.
import type { Db } from '../../db/client';
import { insertSignatureUsageStatement } from '../../db/queries/signature-usage';
import type { Account, Submitter } from '../../db/schema/index';
import { costCentsOf } from '../signature-levels/levels';
import type { ChangeSet } from './change-set';
import type { SubmissionScope } from './submission-scope';

/**
 * Adds the usage row to the batch that completes `submitter`: a completion that loses a race records
 * nothing, and one submitter is never counted twice.
 */
export function recordSignatureUsage(
  ctx: { db: Db; account: Pick<Account, 'id'> },
  cs: ChangeSet,
  scope: SubmissionScope,
  submitter: Submitter,
  at: string,
): void {
  cs.add(
    insertSignatureUsageStatement(ctx.db, {
      accountId: ctx.account.id,
      submissionId: scope.submission.id,
      submitterId: submitter.id,
      level: scope.submission.signatureLevel,
      costCents: costCentsOf(scope.submission.signatureLevel),
      signedAt: at,
    }),
  );
}
