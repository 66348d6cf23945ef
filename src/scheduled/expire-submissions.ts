// Expiry (spec › Submission states: `expire_at` passes): a bounded batch of due submissions per run, so
// 100k due rows never exceed one invocation's limits. When more are due, the run hands the rest to the
// next link of a chain through the messages queue, each link again bounded.
import { createDb } from '../db/client';
import { getAccount } from '../db/queries/accounts';
import { listDueSubmissions } from '../db/queries/submissions';
import type { Bindings } from '../env';
import { loadScope } from '../services/submissions/submission-scope';
import { expireSubmission } from '../services/submissions/submission-state';
import { wakeFanOut } from '../services/webhooks/queue';

/** Submissions one run expires: each is ~6 statements in one batch plus ~4 reads, well inside 1,000 queries. */
export const EXPIRY_BATCH = 40;

export type ExpiryEnv = Pick<Bindings, 'DB' | 'MESSAGES_QUEUE' | 'WEBHOOK_QUEUE' | 'SERVICE_NAME' | 'APP_URL'>;

export async function expireDueSubmissions(env: ExpiryEnv, now = new Date(), limit = EXPIRY_BATCH): Promise<{ expired: number; more: boolean }> {
  const db = createDb(env.DB);
  const due = await listDueSubmissions(db, now.toISOString(), limit + 1);
  const batch = due.slice(0, limit);
  let expired = 0;
  for (const submission of batch) {
    try {
      const account = await getAccount(db, submission.accountId);
      if (!account) continue;
      const scope = await loadScope(db, submission);
      const done = await expireSubmission(
        { db, account, serviceName: env.SERVICE_NAME, apiBase: env.APP_URL || submission.linkBase, messagesQueue: env.MESSAGES_QUEUE },
        scope,
      );
      if (done) expired += 1;
    } catch (err) {
      // Completed or archived meanwhile (the guard refused), or D1 failed: the next run looks again.
      console.error(`expiring submission ${submission.id}:`, err);
    }
  }
  // Their form.expired and submission.expired events go out now, not at the next cron's drain.
  if (expired > 0) await wakeFanOut(env.WEBHOOK_QUEUE, 'expiry');
  const more = due.length > limit;
  if (more) await env.MESSAGES_QUEUE.send({ type: 'expire' });
  return { expired, more };
}
