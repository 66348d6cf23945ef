// Messages queue consumer: delivers each message, acknowledging or retrying it with backoff. The queue
// also carries the expiry sweep's chain, bulk sends' chunks (src/services/bulk-send/store-bulk-chunk.ts)
// and tenant audit rows a request could not write (src/middleware/audit).
import type { ShardScope } from '../db/shards';
import { deliverMessage } from '../services/mail/deliver';
import type { MessageQueueBody } from '../env';
import { expireDueSubmissions } from '../services/submissions/expire-submissions';
import { failBulkChunk, storeBulkChunk } from '../services/bulk-send/store-bulk-chunk';
import { insertAuditEventOnce, type NewAuditEvent } from '../db/queries/audit-events';

/** Deliveries of one message: the first and `max_retries` = 10 more (wrangler.toml › signing-service-messages). */
const MESSAGES_MAX_ATTEMPTS = 11;

/** One shard's part of a batch (src/queues/shard-batches.ts). */
export async function consumeMessages(batch: MessageBatch<MessageQueueBody>, scope: ShardScope): Promise<void> {
  const { db, env } = scope;
  for (const message of batch.messages) {
    if (message.body.type === 'expire') {
      await expireDueSubmissions(scope).then(
        () => message.ack(),
        (err) => {
          console.error('expiry sweep link failed:', err);
          message.retry({ delaySeconds: 30 });
        },
      );
      continue;
    }
    if (message.body.type === 'audit_event') {
      // Typed loosely on the queue (src/env.ts); written by the audit middleware from an `auditRow`.
      await insertAuditEventOnce(db, message.body.row as NewAuditEvent).then(
        () => message.ack(),
        (err) => {
          console.error('audit row:', err);
          message.retry({ delaySeconds: Math.min(300, 5 * 2 ** message.attempts) });
        },
      );
      continue;
    }
    if (message.body.type === 'bulk_send') {
      const body = message.body;
      // Storing a chunk twice stores it once (its claim), so a failed run is simply tried again; after
      // the last delivery its rows are recorded as failed, so the bulk send still completes.
      await storeBulkChunk(scope, body)
        .catch(async (err) => {
          console.error(`bulk send ${body.bulkSendId} chunk ${body.chunk} (attempt ${message.attempts}):`, err);
          if (message.attempts < MESSAGES_MAX_ATTEMPTS) return 'retry' as const;
          await failBulkChunk(scope, body, err);
        })
        .then(
          (outcome) => (outcome === 'retry' ? message.retry({ delaySeconds: Math.min(300, 5 * 2 ** message.attempts) }) : message.ack()),
          () => message.retry({ delaySeconds: 300 }),
        );
      continue;
    }
    try {
      const outcome = await deliverMessage(db, env, message.body.id);
      if (outcome.status === 'retry') message.retry({ delaySeconds: outcome.delaySeconds });
      else message.ack();
    } catch (err) {
      // D1 itself failed: let the queue try again shortly; delivery is idempotent.
      console.error(`message ${(message.body as { id: number }).id}:`, err);
      message.retry({ delaySeconds: 30 });
    }
  }
}
