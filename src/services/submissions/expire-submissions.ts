// Expiry (spec › Submission states: `expire_at` passes): a bounded batch of due submissions per run, so
// 100k due rows never exceed one invocation's limits. When more are due, the run hands the rest to the
// next link of a chain through the messages queue, each link again bounded. The cron
// (src/scheduled/index.ts) starts the chain and the messages queue (src/queues/messages.ts) runs its links.
import { listDueSubmissions } from '../../db/queries/submissions';
import type { ShardScope } from '../../db/shards';
import { expireSubmission } from './submission-state';
import { wakeFanOut } from '../webhooks/queue';
import { actOnSubmissions } from './act-on-submissions';

/** Submissions one run expires: each is ~6 statements in one batch plus ~4 reads, well inside 1,000 queries. */
export const EXPIRY_BATCH = 40;

/** One shard's due submissions; the chain's next link is a message stamped with the shard. */
export async function expireDueSubmissions(
  scope: ShardScope,
  now = new Date(),
  limit = EXPIRY_BATCH,
): Promise<{ expired: number; more: boolean }> {
  const { db, queues } = scope;
  const due = await listDueSubmissions(db, now.toISOString(), limit + 1);
  const batch = due.slice(0, limit);
  const expired = (await actOnSubmissions(scope, batch, 'expiring', async (ctx, scope) => Boolean(await expireSubmission(ctx, scope))))
    .length;
  // Their form.expired and submission.expired events go out now, not at the next cron's drain.
  if (expired > 0) await wakeFanOut(queues.webhooks, 'expiry');
  const more = due.length > limit;
  if (more) await queues.messages.send({ type: 'expire' });
  return { expired, more };
}
