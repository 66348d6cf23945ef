// Runs a consumer's sends side by side within what one Worker invocation may hold open: at most
// `connections` at once (Workers keep 6 connections open per invocation; a seventh fetch waits inside the
// runtime while its own timeout already runs), at most `perKey` to one endpoint while other endpoints'
// sends are waiting, so a slow endpoint never holds every connection (alone it may use them all), and
// none started after `startBy`, so a run ends in bounded time. An endpoint whose send has run longer
// than `slowAfterMs` while another endpoint answered in time and has items waiting is slow for the rest
// of the run: none of its waiting items start, they are handed back (`slowKeys`) for a later run, so a
// slow endpoint holds at most the sends it already had open. Alone, or when every endpoint is slow (a
// busy isolate), nobody is held up and the send window bounds the run.

export type PoolLimits = {
  connections: number;
  perKey: number;
  /** A Date.now() time: items not started by then are left for a later run. */
  startBy: number;
  /** A send running longer than this makes its key slow: its waiting items are not started. */
  slowAfterMs?: number;
};

export type PoolResult<R> = {
  results: (R | undefined)[];
  /** Indexes of the items never started. */
  skipped: number[];
  /** The keys found slow; their skipped items were held back for that reason. */
  slowKeys: Set<string | number>;
};

/**
 * Calls `run` for each item in order, skipping ahead past items whose key is at its limit (`perKey` while
 * items of other keys wait, `connections` once none do). `run` should
 * not throw; if it does, the pool rejects with that error once nothing else is running.
 */
export function runPooled<T, R>(
  items: readonly T[],
  keyOf: (item: T) => string | number,
  limits: PoolLimits,
  run: (item: T) => Promise<R>,
): Promise<PoolResult<R>> {
  const results: (R | undefined)[] = new Array(items.length);
  const waiting = items.map((_, i) => i);
  const busy = new Map<string | number, number>();
  const queued = new Map<string | number, number>();
  for (const item of items) queued.set(keyOf(item), (queued.get(keyOf(item)) ?? 0) + 1);
  const slowKeys = new Set<string | number>();
  const answeredInTime = new Set<string | number>();
  const overdueSends = new Map<string | number, number>();
  // Slow only beside others: another endpoint answered in time (so the wait is this endpoint's, not a busy
  // isolate's) and another endpoint's items are still waiting (so someone is being held up).
  const markSlow = (key: string | number) => {
    const othersFine = [...answeredInTime].some((k) => k !== key);
    const othersWaiting = waiting.some((i) => keyOf(items[i]) !== key && !slowKeys.has(keyOf(items[i])));
    if (othersFine && othersWaiting) slowKeys.add(key);
  };
  let active = 0;
  let failure: { error: unknown } | null = null;

  return new Promise((resolve, reject) => {
    const pump = () => {
      for (const [key, n] of overdueSends) if (n > 0 && !slowKeys.has(key)) markSlow(key);
      const closed = failure !== null || Date.now() > limits.startBy;
      // Items of slow keys will not start, so they do not count as others waiting.
      let startable = slowKeys.size ? waiting.filter((i) => !slowKeys.has(keyOf(items[i]))).length : waiting.length;
      for (let w = 0; !closed && w < waiting.length && active < limits.connections; ) {
        const i = waiting[w];
        const key = keyOf(items[i]);
        const othersWaiting = startable > (queued.get(key) ?? 0);
        if (slowKeys.has(key) || (busy.get(key) ?? 0) >= (othersWaiting ? limits.perKey : limits.connections)) {
          w += 1;
          continue;
        }
        waiting.splice(w, 1);
        startable -= 1;
        queued.set(key, (queued.get(key) ?? 1) - 1);
        active += 1;
        busy.set(key, (busy.get(key) ?? 0) + 1);
        let overdue = false;
        const slowTimer =
          limits.slowAfterMs === undefined
            ? undefined
            : setTimeout(() => {
                overdue = true;
                overdueSends.set(key, (overdueSends.get(key) ?? 0) + 1);
                pump();
              }, limits.slowAfterMs);
        const sendStarted = Date.now();
        run(items[i])
          .then(
            (result) => void (results[i] = result),
            (error: unknown) => void (failure ??= { error }),
          )
          .finally(() => {
            clearTimeout(slowTimer);
            if (overdue) overdueSends.set(key, (overdueSends.get(key) ?? 1) - 1);
            if (limits.slowAfterMs !== undefined && Date.now() - sendStarted < limits.slowAfterMs) answeredInTime.add(key);
            active -= 1;
            busy.set(key, (busy.get(key) ?? 1) - 1);
            pump();
          });
      }
      if (active > 0) return;
      if (failure) reject(failure.error);
      else resolve({ results, skipped: waiting, slowKeys });
    };
    pump();
  });
}
