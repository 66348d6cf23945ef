// Splits a queue batch by the shard its messages carry (src/lib/shard-queues.ts) and runs each part
// against its own shard at the same time: a slow or failing shard holds up only its own messages.
import { shardScope, type ShardScope } from '../db/shards';
import type { Bindings } from '../env';
import { shardOfMessage } from '../lib/shard-queues';

function part<Body>(batch: MessageBatch<Body>, messages: Message<Body>[]): MessageBatch<Body> {
  return {
    queue: batch.queue,
    messages,
    ackAll: () => messages.forEach((m) => m.ack()),
    retryAll: (options?: QueueRetryOptions) => messages.forEach((m) => m.retry(options)),
  } as unknown as MessageBatch<Body>;
}

export async function consumeByShard<Body>(
  batch: MessageBatch<Body>,
  env: Bindings,
  consume: (part: MessageBatch<Body>, scope: ShardScope) => Promise<void>,
): Promise<void> {
  const parts = new Map<number, Message<Body>[]>();
  for (const message of batch.messages) {
    const shard = shardOfMessage(message.body);
    parts.set(shard, [...(parts.get(shard) ?? []), message]);
  }
  const results = await Promise.allSettled(
    [...parts].map(async ([shard, messages]) => {
      let scope: ShardScope;
      try {
        scope = shardScope(env, shard);
      } catch (err) {
        // A message naming a shard this deployment does not bind can never be handled here.
        console.error(`${batch.queue}: dropping ${messages.length} message(s) for shard ${shard}:`, err);
        messages.forEach((m) => m.ack());
        return;
      }
      await consume(part(batch, messages), scope);
    }),
  );
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length)
    throw new AggregateError(
      failed.map((f) => f.reason),
      `${batch.queue}: ${failed.length} shard part(s) failed`,
    );
}
