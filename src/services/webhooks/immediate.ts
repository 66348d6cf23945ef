// The request side of the outbox with immediate dispatch: after a request's batch has committed its
// events, its waitUntil fans them out and sends their first attempts (fan-out.ts › dispatchWritten).
// Best effort by design: the queue's drain and the cron stay the at-least-once path behind it.
import type { Db } from '../../db/client';
import { d1TimingOn, webhookInlineD1, withD1Time } from '../../db/d1-timing';
import type { ShardScope } from '../../db/shards';
import { enabledWebhooksStatement } from '../../db/queries/webhooks';
import type { EventRow, Webhook } from '../../db/schema/index';
import { outboxInsert, type OutboxEvent } from '../events/outbox';
import { deliveryContext } from './context';
import { dispatchWritten } from './fan-out';
import { requestDrain } from './queue';

/**
 * Writes one account's events in one D1 batch that also reads the account's enabled endpoints, so the
 * dispatch after the commit needs no read of its own: the rows as stored and the endpoints as they were then.
 */
export async function writeEventsForDispatch(
  db: Db,
  accountId: number,
  rows: readonly OutboxEvent[],
): Promise<{ written: EventRow[]; endpoints: Webhook[] }> {
  const [endpoints, ...written] = await db.batch([enabledWebhooksStatement(db, accountId), ...rows.map((row) => outboxInsert(db, row).returning())]);
  return { written: written.flat(), endpoints };
}

/** For `ctx.waitUntil`: never rejects; if the dispatch fails the queue is asked to drain instead. */
export async function dispatchAfterCommit(scope: ShardScope, written: readonly EventRow[], endpoints: readonly Webhook[]): Promise<void> {
  const dispatch = () => dispatchWritten(deliveryContext(scope.env, scope.db), scope.queues.webhooks, written, endpoints);
  try {
    await (d1TimingOn(scope.env) ? withD1Time(webhookInlineD1, dispatch) : dispatch());
  } catch (err) {
    console.error('webhooks: inline dispatch failed, asking the queue to drain', err);
    await requestDrain(scope.queues.webhooks).catch((e) => console.error('webhooks: drain request failed', e));
  }
}
