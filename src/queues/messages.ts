// Messages queue consumer: delivers each message, acknowledging or retrying it with backoff.
import { createDb } from '../db/client';
import { deliverMessage } from '../services/mail/deliver';
import type { MessageQueueBody } from '../services/mail/outbox';
import type { MailEnv } from '../services/mail/transports';
import { expireDueSubmissions, type ExpiryEnv } from '../scheduled/expire-submissions';

export async function consumeMessages(batch: MessageBatch<MessageQueueBody>, env: MailEnv & ExpiryEnv): Promise<void> {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    if (message.body.type === 'expire') {
      await expireDueSubmissions(env).then(
        () => message.ack(),
        (err) => {
          console.error('expiry sweep link failed:', err);
          message.retry({ delaySeconds: 30 });
        },
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
