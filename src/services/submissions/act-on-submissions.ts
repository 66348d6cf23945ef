// The loop the cron's submission steps (src/scheduled/) and the expiry chain's queue links share: each submission gets the context a change made without a
// request acts in (no caller IP; links on the account's custom domain, else the submission's own base), and one that fails is
// logged while the others go on — the next run looks at it again.
import { getAccount } from '../../db/queries/accounts';
import { activeDomainsOf, type ActiveDomain } from '../../db/queries/custom-domains';
import type { Submission } from '../../db/schema/index';
import type { ShardScope } from '../../db/shards';
import { loadScope, type SubmissionScope } from './submission-scope';
import { withLinkDomain } from './links';
import type { StateContext } from './submission-state';

/** Runs `act` on each submission in turn; returns the ids it reported as changed. */
export async function actOnSubmissions(
  scope: ShardScope,
  submissions: readonly Submission[],
  doing: string,
  act: (ctx: StateContext, scope: SubmissionScope) => Promise<boolean>,
): Promise<number[]> {
  const { db, control, env, queues } = scope;
  const changed: number[] = [];
  // Links in the messages built here use the account's custom domain as a request would (one control
  // query per account per run); a domain removed or deactivated since falls back to the stored base.
  const domainsByAccount = new Map<number, ActiveDomain[]>();
  for (const submission of submissions) {
    try {
      const account = await getAccount(control, submission.accountId);
      if (!account) continue;
      let domains = domainsByAccount.get(account.id);
      if (!domains) domainsByAccount.set(account.id, (domains = await activeDomainsOf(control, account.id)));
      const ctx: StateContext = {
        db,
        account,
        serviceName: env.SERVICE_NAME,
        apiBase: env.APP_URL || submission.linkBase,
        linkSecret: env.ENCRYPTION_KEY,
        messagesQueue: queues.messages,
        sealingQueue: queues.sealing,
      };
      if (await act(ctx, withLinkDomain(await loadScope(db, submission), domains))) changed.push(submission.id);
    } catch (err) {
      // Changed meanwhile (a guard refused) or D1 failed for this one.
      console.error(`${doing} submission ${submission.id}:`, err);
    }
  }
  return changed;
}
