// Queue messages carry the shard whose rows they are about (docs/scaling.md › Background work), so a
// consumer reads that shard's database and nothing else. Producers are handed queues that stamp it.

/** Every message body may say which shard it belongs to; one without (sent before sharding) is shard 0. */
export type ShardStamp = { shard?: number };

export function shardOfMessage(body: unknown): number {
  const shard = (body as ShardStamp | null)?.shard;
  return typeof shard === 'number' && Number.isInteger(shard) && shard >= 0 ? shard : 0;
}

/** A producer that adds `shard` to every body it sends. */
export function stampedQueue<Body>(queue: Queue<Body>, shard: number): Queue<Body> {
  const stamp = (body: Body) => ({ ...(body as object), shard }) as Body;
  return {
    send: (body, options) => queue.send(stamp(body), options),
    sendBatch: (messages, options) =>
      queue.sendBatch(
        [...messages].map((m) => ({ ...m, body: stamp(m.body) })),
        options,
      ),
  } as Queue<Body>;
}
