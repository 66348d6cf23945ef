// Development only (bench/shards, bench/webhooks): D1 calls counted and timed into a `D1Time` through the
// D1 observers (src/db/observed-d1.ts), for `Server-Timing: d1` on requests (middleware/d1-timing) and the
// webhook consumer's and the inline dispatch's totals (GET /dev/events/d1-calls).
import { isDevelopment } from '../lib/environment';
import { observeD1, withD1Observers, type D1Observer } from './observed-d1';

export type D1Time = { ms: number; calls: number };

/** An observer that adds each call's time to `time`. */
export function timeD1Into(time: D1Time): D1Observer {
  return async (_call, work) => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      time.ms += performance.now() - start;
      time.calls += 1;
    }
  };
}

/** Runs `work` with its D1 calls added to `time` (and to whatever observes the work around it). */
export function withD1Time<T>(time: D1Time, work: () => Promise<T>): Promise<T> {
  return withD1Observers(() => {
    observeD1(timeD1Into(time));
    return work();
  });
}

/** Whether D1 timing is switched on: D1_TIMING=true together with ENVIRONMENT=development. */
export function d1TimingOn(env: { ENVIRONMENT?: string; D1_TIMING?: string }): boolean {
  return isDevelopment(env) && env.D1_TIMING === 'true';
}

/** The webhook consumer's D1 calls in this isolate so far, when timing is on (bench/webhooks). */
export const webhookConsumerD1: D1Time = { ms: 0, calls: 0 };

/** The inline dispatch's D1 calls (after a request's response, services/webhooks/immediate.ts), likewise. */
export const webhookInlineD1: D1Time = { ms: 0, calls: 0 };
