// Messages queue consumer: delivers each message, acknowledging or retrying it with backoff.
import { createDb } from '../db/client';
import { deliverMessage } from '../services/mail/deliver';
import type { MessageQueueBody } from '../services/mail/outbox';
import type { MailEnv } from '../services/mail/transports';

export async function consumeMessages(batch: MessageBatch<MessageQueueBody>, env: MailEnv & { DB: D1Database }): Promise<void> {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    try {
      const outcome = await deliverMessage(db, env, message.body.id);
      if (outcome.status === 'retry') message.retry({ delaySeconds: outcome.delaySeconds });
      else message.ack();
    } catch (err) {
      // D1 itself failed: let the queue try again shortly; delivery is idempotent.
      console.error(`message ${message.body.id}:`, err);
      message.retry({ delaySeconds: 30 });
    }
  }
}
