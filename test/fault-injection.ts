// Fault injection around the real bindings (issue 28 › 10): `withFaults(plan)` hands back the
// Worker's bindings with D1, R2, the queues and outbound fetch wrapped, so that the nth call of one kind
// fails once — before it reaches the binding (nothing happened) or after it (it happened, the caller
// never heard) — and every other call passes through to the real local binding. Queue sends are also
// kept in a mailbox, so a test can deliver them to the Worker's queue() as the Queues runtime would.
import { env } from 'cloudflare:test';
import type { Bindings } from '../src/env';
import { shardBindings } from '../src/db/shards';
import { receiverBase } from './webhook-receiver';

/** What can fail: a D1 batch, a single D1 write (not a SELECT), an R2 put, a queue send, an outbound call. */
export type FaultKind = 'd1.batch' | 'd1.write' | 'r2.put' | 'queue.send' | 'fetch.tsa' | 'fetch.csc' | 'fetch.webhook';

export const FAULT_KINDS: readonly FaultKind[] = [
  'd1.batch',
  'd1.write',
  'r2.put',
  'queue.send',
  'fetch.tsa',
  'fetch.csc',
  'fetch.webhook',
];

/** `before`: the call fails and did nothing. `after`: the call did its work, then the caller gets an error. */
export type FaultMode = 'before' | 'after';

export type FaultPlan = { kind: FaultKind; nth: number; mode: FaultMode } | null;

/** One faultable call as it happened: its kind, its number among calls of that kind, where and what. */
export type Call = { kind: FaultKind; nth: number; phase: string; what: string };

export type MailboxEntry = { queue: string; body: unknown; attempts: number; dueAt: number };

export class InjectedFault extends Error {
  override name = 'InjectedFault';
}

/** The local TSA's endpoint (test/global-setup/tsa.mjs); sealing timestamps through it under faults. */
export const TSA_URL = `${env.TEST_TSA_URL}/tsa`;

/** `insert into "events"` → `insert events`; what a statement does, for the matrix. */
function describeSql(sql: string): string {
  const m = /^\s*(insert(?:\s+or\s+\w+)?\s+into|update|delete\s+from)\s+"?(\w+)"?/i.exec(sql);
  if (m) return `${m[1].split(/\s+/)[0].toLowerCase()} ${m[2]}`;
  const read = /^\s*select\b.*?\bfrom\s+"?(\w+)"?/is.exec(sql);
  return read ? `select ${read[1]}` : sql.trim().slice(0, 24);
}

const isRead = (sql: string) => /^\s*(select|with|pragma)\b/i.test(sql);

export class Faults {
  readonly calls: Call[] = [];
  readonly mailbox: MailboxEntry[] = [];
  fired: Call | null = null;
  /** Set by the driver: which part of the system is running (`completion request`, `sealing consumer` …). */
  phase = 'setup';
  /** The clock mailbox entries are due against; the driver moves it forward. */
  now = Date.now();
  /** Off: calls pass through uncounted (a final check that must not be faulted). */
  armed = true;
  private counts = new Map<FaultKind, number>();
  private realFetch: typeof fetch | null = null;

  constructor(readonly plan: FaultPlan) {}

  /** Counts the call and, if the plan names it, fails it once; `work` is the real call. */
  async call<T>(kind: FaultKind, what: string, work: () => Promise<T>): Promise<T> {
    if (!this.armed) return work();
    const nth = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, nth);
    const call: Call = { kind, nth, phase: this.phase, what };
    this.calls.push(call);
    const hit = this.plan && !this.fired && this.plan.kind === kind && this.plan.nth === nth;
    if (!hit) return work();
    this.fired = call;
    if (this.plan!.mode === 'before') throw new InjectedFault(`injected fault before ${kind} #${nth} (${what})`);
    await work();
    throw new InjectedFault(`injected fault after ${kind} #${nth} (${what})`);
  }

  /** The bindings with every faultable binding wrapped; TSA_URLS points at the local TSA. */
  env(base: Cloudflare.Env = env): Cloudflare.Env {
    const wrapped: Record<string, unknown> = { ...base, TSA_URLS: TSA_URL };
    wrapped.CONTROL_DB = this.d1(base.CONTROL_DB);
    shardBindings(base).forEach((binding, shard) => (wrapped[`SHARD_${shard}`] = this.d1(binding)));
    wrapped.FILES = this.r2(base.FILES);
    wrapped.WEBHOOK_QUEUE = this.queue(base.WEBHOOK_QUEUE, 'signing-service-webhooks');
    if (base.SEALING_QUEUE) wrapped.SEALING_QUEUE = this.queue(base.SEALING_QUEUE, 'signing-service-sealing');
    return wrapped as unknown as Cloudflare.Env;
  }

  /**
   * Outbound calls to the TSA, the QES provider (CSC imitation) and the webhook receiver go through the
   * plan until `restore()`. The provider's authorization page is the signer's browser, never the Worker's.
   */
  interceptFetch(): void {
    if (this.realFetch) return;
    const real = (this.realFetch = globalThis.fetch);
    const hooks = `${receiverBase()}/hooks/`;
    const kindOf = (url: string): FaultKind | null => {
      if (url.startsWith(TSA_URL)) return 'fetch.tsa';
      if (url.startsWith(hooks)) return 'fetch.webhook';
      // Under an account's prefix (test/csc-fixtures.ts); the imitation's CRLs (sealing's DSS) are cached per isolate.
      if (url.startsWith(`${env.TEST_CSC_URL}/t/`) && !url.includes('/oauth2/authorize')) return 'fetch.csc';
      return null;
    };
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      const kind = kindOf(url);
      if (!kind) return real(input, init);
      const what =
        kind === 'fetch.tsa'
          ? 'timestamp request'
          : kind === 'fetch.webhook'
            ? 'POST to endpoint'
            : new URL(url).pathname.replace(/^\/t\/[^/]+/, '');
      return this.call(kind, what, () => real(input, init));
    }) as typeof fetch;
  }

  restore(): void {
    if (this.realFetch) globalThis.fetch = this.realFetch;
    this.realFetch = null;
  }

  private d1(binding: D1Database): D1Database {
    const sqlOf = new WeakMap<object, string>();
    const real = new WeakMap<object, D1PreparedStatement>();
    const wrapStatement = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
      const proxy = new Proxy(statement, {
        get: (target, prop) => {
          if (prop === 'bind') return (...values: unknown[]) => wrapStatement(target.bind(...values), sql);
          if ((prop === 'run' || prop === 'all' || prop === 'first' || prop === 'raw') && !isRead(sql)) {
            return (...args: unknown[]) =>
              this.call('d1.write', describeSql(sql), () => (target[prop] as (...a: unknown[]) => Promise<unknown>).apply(target, args));
          }
          const value = (target as unknown as Record<PropertyKey, unknown>)[prop];
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      sqlOf.set(proxy, sql);
      real.set(proxy, statement);
      return proxy;
    };
    return new Proxy(binding, {
      get: (target, prop) => {
        if (prop === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql), sql);
        if (prop === 'batch') {
          return (statements: D1PreparedStatement[]) => {
            const sqls = statements.map((s) => sqlOf.get(s) ?? '?');
            const what = `${describeSql(sqls[0])}${sqls.length > 1 ? ` +${sqls.length - 1}` : ''}`;
            return this.call('d1.batch', what, () => target.batch(statements.map((s) => real.get(s) ?? s)));
          };
        }
        const value = (target as unknown as Record<PropertyKey, unknown>)[prop];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  private r2(bucket: R2Bucket): R2Bucket {
    return new Proxy(bucket, {
      get: (target, prop) => {
        if (prop === 'put') {
          return (key: string, ...rest: unknown[]) =>
            this.call('r2.put', key.split('/')[0], () => (target.put as (...a: unknown[]) => Promise<unknown>).call(target, key, ...rest));
        }
        const value = (target as unknown as Record<PropertyKey, unknown>)[prop];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  private queue<Body>(queue: Queue<Body>, name: string): Queue<Body> {
    const short = name.replace('signing-service-', '');
    const post = (body: unknown, delaySeconds = 0) =>
      this.mailbox.push({ queue: name, body, attempts: 1, dueAt: this.now + delaySeconds * 1000 });
    const kindOf = (body: unknown) => (body as { kind?: string; type?: string }).kind ?? (body as { type?: string }).type ?? '?';
    return {
      send: (body: Body, options?: QueueSendOptions) =>
        this.call('queue.send', `${short}: ${kindOf(body)}`, async () => {
          await queue.send(body, options);
          post(body, options?.delaySeconds);
        }),
      sendBatch: (messages: Iterable<MessageSendRequest<Body>>, options?: QueueSendBatchOptions) => {
        const list = [...messages];
        return this.call('queue.send', `${short}: ${list.length > 0 ? kindOf(list[0].body) : '-'} ×${list.length}`, async () => {
          await queue.sendBatch(list, options);
          for (const m of list) post(m.body, m.delaySeconds ?? options?.delaySeconds);
        });
      },
    } as unknown as Queue<Body>;
  }
}

/** The bindings of `base` with the plan's fault in them, and the harness that watches them. */
export function withFaults(plan: FaultPlan, base: Cloudflare.Env = env): { faults: Faults; env: Cloudflare.Env & Bindings } {
  const faults = new Faults(plan);
  return { faults, env: faults.env(base) as Cloudflare.Env & Bindings };
}

/** A MessageBatch the Worker's queue() takes, recording what the consumer did with each message. */
export function messageBatch<Body>(queue: string, entries: readonly MailboxEntry[]) {
  const verdicts = new Map<number, { retry: boolean; delaySeconds: number }>();
  const messages = entries.map((entry, i) => ({
    id: `fault-${i}-${crypto.randomUUID()}`,
    timestamp: new Date(),
    body: entry.body as Body,
    attempts: entry.attempts,
    ack: () => verdicts.set(i, { retry: false, delaySeconds: 0 }),
    retry: (options?: QueueRetryOptions) => verdicts.set(i, { retry: true, delaySeconds: options?.delaySeconds ?? 0 }),
  }));
  const batch = {
    queue,
    messages,
    ackAll: () => messages.forEach((m) => m.ack()),
    retryAll: (options?: QueueRetryOptions) => messages.forEach((m) => m.retry(options)),
  } as unknown as MessageBatch<Body>;
  /** The messages the runtime would deliver again: retried ones, and every unsettled one if the consumer threw. */
  const redeliveries = (threw: boolean) =>
    entries.flatMap((entry, i) => {
      const verdict = verdicts.get(i);
      if (verdict ? verdict.retry : threw) return [{ ...entry, attempts: entry.attempts + 1, delaySeconds: verdict?.delaySeconds ?? 0 }];
      return [];
    });
  return { batch, redeliveries };
}

/**
 * The calls of `kind` a matrix faults: every one, except that of a run of like calls (one per table, one
 * per endpoint: same place, same verb, as many statements) only the first and the last; the ones between
 * do the same step.
 */
export function stepsOf(calls: readonly Call[], kind: FaultKind): Call[] {
  const mine = calls.filter((c) => c.kind === kind);
  const shape = (c: Call) => `${c.phase}|${c.what.split(' ')[0]}|${/\+\d+$/.exec(c.what)?.[0] ?? ''}`;
  const like = (a: Call | undefined, b: Call) => a !== undefined && shape(a) === shape(b);
  return mine.filter((c, i) => !like(mine[i - 1], c) || !like(mine[i + 1], c));
}

/**
 * Faults each call of `kind` that the clean run made (`stepsOf`), once per run, in `mode`, recording
 * every run in `matrix`. Returns a sentence per run whose fault was never reached or that left problems.
 */
export async function faultEachCall<O extends { fired: Call | null; problems: string[] }>(
  clean: readonly Call[],
  kind: FaultKind,
  mode: FaultMode,
  run: (plan: FaultPlan) => Promise<{ outcome: O }>,
  matrix: { call: Call; mode: FaultMode; outcome: O }[],
): Promise<string[]> {
  const failures: string[] = [];
  for (const call of stepsOf(clean, kind)) {
    const { outcome } = await run({ kind, nth: call.nth, mode });
    matrix.push({ call, mode, outcome });
    if (!outcome.fired) failures.push(`#${call.nth} (${call.phase}: ${call.what}) was not reached`);
    else if (outcome.problems.length) failures.push(`#${call.nth} (${call.phase}: ${call.what}): ${outcome.problems.join('; ')}`);
  }
  return failures;
}
