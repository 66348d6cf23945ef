// One delivery attempt: sign the stored body, POST it, judge the answer, record it and schedule the next
// attempt (spec › Events › Delivery, retry and safety; decisions.md › Webhooks).
import type { Db } from '../../db/client';
import { claimDueAttempts, recordAttempts, type AttemptOutcome, type RecordedAttempt } from '../../db/queries/webhook-deliveries';
import type { NewWebhookDelivery, Webhook, WebhookDelivery } from '../../db/schema/index';
import { readLimited } from '../../lib/request';
import { signDelivery } from './signature';
import { checkWebhookDestination } from './destination';
import type { HostResolver } from './dns-over-https';
import { runPooled } from './send-pool';
import type { UrlPolicy } from './url-policy';

export const MAX_ATTEMPTS = 6;
/** Delay before attempts 2…6, counted from the failed attempt: 1 m, 5 m, 30 m, 2 h, 8 h (≈10.6 h in all). */
export const RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 28_800] as const;
/** The whole response, headers and body, must arrive within this (decisions.md: 10 s). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a consumer holds an attempt; longer than any attempt can take. */
export const LEASE_MS = 60_000;
/** Response bodies are logged up to this many characters. */
export const RESPONSE_BODY_LIMIT = 4_096;
/**
 * Attempts one consumer run makes at most; the rest are woken again. Each is a subrequest, and an
 * invocation has 1,000 (paid plan) for them, their DNS lookups and its D1 and queue calls.
 */
export const ATTEMPTS_PER_RUN = 250;
/** Sends at once: a Worker invocation keeps at most 6 connections open (send-pool.ts). */
export const SEND_CONNECTIONS = 6;
/** Sends at once to one endpoint while other endpoints' sends wait: a slow one holds at most half the connections. */
export const SENDS_PER_ENDPOINT = 3;
/**
 * No send starts later than this after a run began; the attempts not started are given back and woken
 * again, so a run lasts at most this plus one attempt's timeout, well inside LEASE_MS.
 */
export const SEND_WINDOW_MS = 20_000;
/**
 * A send still unanswered after this makes its endpoint slow for the rest of the run: its attempts not
 * yet started are given back and woken again after SLOW_ENDPOINT_PAUSE_SECONDS, so a slow endpoint
 * holds only the connections it already had and never the other endpoints' sends or the run.
 */
export const SLOW_SEND_MS = 2_000;
/** How long a slow endpoint's given-back attempts wait before their next run (not counted as attempts). */
export const SLOW_ENDPOINT_PAUSE_SECONDS = 10;

export type DeliveryContext = {
  db: Db;
  policy: UrlPolicy;
  /** Looks up host names before each attempt; one per batch, so a batch asks once per name. */
  resolve: HostResolver;
  userAgent: string;
  /** Defaults to ATTEMPT_TIMEOUT_MS; tests shorten it rather than wait 10 s. */
  timeoutMs?: number;
  /** Defaults to SEND_WINDOW_MS; tests shorten it. */
  sendWindowMs?: number;
  /** Defaults to SLOW_SEND_MS; tests shorten it. */
  slowSendMs?: number;
};

/** `Service-Webhook/1.0` style (spec › Headers), from the configured service name. */
export function webhookUserAgent(serviceName: string): string {
  return `${serviceName.replace(/[^A-Za-z0-9]/g, '') || 'Service'}-Webhook/1.0`;
}

export function retryDelaySeconds(failedAttempt: number): number | null {
  return failedAttempt >= 1 && failedAttempt < MAX_ATTEMPTS ? RETRY_DELAYS_SECONDS[failedAttempt - 1] : null;
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `No complete response within ${timeoutMs / 1000} seconds.`;
  const message = err instanceof Error ? err.message : String(err);
  return `The request failed before a response: ${message}`.slice(0, 500);
}

export type SentAttempt = { outcome: AttemptOutcome /** Not worth retrying: the destination is refused. */; final: boolean };

/** Sends `row`'s body to `hook` once. Never throws for anything the receiver or network does. */
export async function sendAttempt(
  ctx: DeliveryContext,
  row: Pick<WebhookDelivery, 'deliveryUuid' | 'requestBody'>,
  hook: Pick<Webhook, 'url' | 'secret'>,
  attemptedAt: string,
  options: { test?: boolean } = {},
): Promise<SentAttempt> {
  const base = { url: hook.url, attemptedAt, httpStatus: null, responseBody: null, responseTimeMs: null, deliveredAt: null };
  // Re-checked on every attempt: the policy may have changed since the endpoint was saved, and DNS may
  // now point the name somewhere else (rebinding). A URL the policy refuses is final; a DNS answer is
  // not (it may change back), so that attempt fails and is retried like any other failure.
  const verdict = await checkWebhookDestination(hook.url, ctx.policy, ctx.resolve);
  if (!verdict.ok) {
    return {
      final: verdict.kind === 'url',
      outcome: { ...base, status: 'failed', requestHeaders: null, errorMessage: `Not sent: ${verdict.reason}` },
    };
  }

  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': ctx.userAgent,
    'X-Webhook-Delivery-Id': row.deliveryUuid,
    'X-Webhook-Secret': hook.secret,
    // X-Webhook-Signature, and the Standard Webhooks trio signed at this attempt's time (signature.ts).
    ...(await signDelivery(hook.secret, row.deliveryUuid, Math.floor(Date.parse(attemptedAt) / 1000), row.requestBody)),
  };
  if (options.test) headers['X-Webhook-Test'] = 'true';
  // The log shows what was sent, except the secret itself (style: never log secrets).
  const requestHeaders = { ...headers, 'X-Webhook-Secret': '[redacted]' };

  const timeoutMs = ctx.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const started = Date.now();
  try {
    const response = await fetch(verdict.url, {
      method: 'POST',
      headers,
      body: row.requestBody,
      // A 3xx is a failure and is never followed (decisions.md), so a redirect cannot reach a blocked host.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const responseBody = await readLimited(response, RESPONSE_BODY_LIMIT);
    const responseTimeMs = Date.now() - started;
    const ok = response.status >= 200 && response.status < 300;
    let errorMessage: string | null = null;
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('Location');
      errorMessage = `The endpoint answered ${response.status} (redirect${location ? ` to ${location.slice(0, 200)}` : ''}); redirects are not followed.`;
    } else if (!ok) {
      errorMessage = `The endpoint answered ${response.status}; only 2xx counts as delivered.`;
    }
    return {
      final: false,
      outcome: {
        ...base,
        status: ok ? 'success' : 'failed',
        requestHeaders,
        httpStatus: response.status,
        responseBody,
        responseTimeMs,
        errorMessage,
        deliveredAt: ok ? attemptedAt : null,
      },
    };
  } catch (err) {
    return {
      final: false,
      outcome: {
        ...base,
        status: 'failed',
        requestHeaders,
        responseTimeMs: Date.now() - started,
        errorMessage: describeFetchError(err, timeoutMs),
      },
    };
  }
}

export type DeliverResult =
  | { kind: 'attempted'; status: 'success' | 'failed'; attempt: number; retryAt: string | null }
  /** The pending attempt exists but is due later: wake up again then. */
  | { kind: 'not_due'; dueAt: string }
  /**
   * Due, but left for another run (this one's share or send window was used up, or its endpoint was
   * slow): wake up again after `delaySeconds`.
   */
  | { kind: 'deferred'; delaySeconds: number }
  /** Nothing to do: finished, unknown, or held by another consumer. */
  | { kind: 'idle' };

function closedOff(row: WebhookDelivery, attemptedAt: string, message: string): AttemptOutcome {
  return {
    status: 'failed',
    url: row.url,
    requestHeaders: null,
    httpStatus: null,
    responseBody: null,
    responseTimeMs: null,
    errorMessage: message,
    attemptedAt,
    deliveredAt: null,
  };
}

function nextAttempt(row: WebhookDelivery, outcome: AttemptOutcome, retryAt: string): NewWebhookDelivery {
  return {
    accountId: row.accountId,
    webhookId: row.webhookId,
    eventId: row.eventId,
    event: row.event,
    deliveryUuid: row.deliveryUuid,
    attempt: row.attempt + 1,
    maxAttempts: row.maxAttempts,
    status: 'pending',
    url: outcome.url,
    requestBody: row.requestBody,
    nextAttemptAt: retryAt,
    test: row.test,
    redeliveryOf: row.redeliveryOf,
  };
}

/** One held attempt, sent (or closed off) and judged; nothing is written here. */
async function attemptOne(ctx: DeliveryContext, row: WebhookDelivery, hook: Webhook | undefined, now: number) {
  // `now` is when the batch started; the attempt itself may come later in a busy batch.
  const attemptAt = Math.max(now, Date.now());
  const attemptIso = new Date(attemptAt).toISOString();
  let sent: SentAttempt;
  if (!hook || hook.deletedAt) sent = { final: true, outcome: closedOff(row, attemptIso, 'Not sent: the endpoint was deleted.') };
  else if (!hook.enabled) sent = { final: true, outcome: closedOff(row, attemptIso, 'Not sent: the endpoint is disabled.') };
  else sent = await sendAttempt(ctx, row, hook, attemptIso);

  const delay = sent.outcome.status === 'failed' && !sent.final ? retryDelaySeconds(row.attempt) : null;
  // The retry is due `delay` after the attempt finished, not after it started.
  const retryAt = delay === null ? null : new Date(attemptAt + (sent.outcome.responseTimeMs ?? 0) + delay * 1000).toISOString();
  const recorded: RecordedAttempt = { row, outcome: sent.outcome, next: retryAt ? nextAttempt(row, sent.outcome, retryAt) : null };
  const result: DeliverResult = { kind: 'attempted', status: sent.outcome.status as 'success' | 'failed', attempt: row.attempt, retryAt };
  return { recorded, result };
}

/**
 * Makes the due attempt of each delivery, if any: one D1 batch claims them and reads their endpoints,
 * then `attemptClaimed` sends and records them. Idempotent by delivery uuid: the lease makes a second
 * wake-up for the same delivery a no-op while the first runs, and a recorded attempt is never redone.
 */
export async function deliverDue(ctx: DeliveryContext, deliveryUuids: readonly string[], now: number): Promise<Map<string, DeliverResult>> {
  const startedAt = Date.now();
  const nowIso = new Date(now).toISOString();
  const leaseIso = new Date(now + LEASE_MS).toISOString();
  const uuids = [...new Set(deliveryUuids)];
  const results = new Map<string, DeliverResult>();
  for (const uuid of uuids.slice(ATTEMPTS_PER_RUN)) results.set(uuid, { kind: 'deferred', delaySeconds: 0 });
  const asked = uuids.slice(0, ATTEMPTS_PER_RUN);

  const { claimed, endpoints, dueAt } = await claimDueAttempts(ctx.db, asked, nowIso, leaseIso);
  const taken = new Set(claimed.map((row) => row.deliveryUuid));
  for (const uuid of asked) {
    if (taken.has(uuid)) continue;
    const due = dueAt.get(uuid);
    results.set(uuid, due && due > nowIso ? { kind: 'not_due', dueAt: due } : { kind: 'idle' });
  }
  if (claimed.length === 0) return results;
  for (const [uuid, result] of await attemptClaimed(ctx, claimed, endpoints, { now, startedAt, leaseUntil: leaseIso })) {
    results.set(uuid, result);
  }
  return results;
}

/** A run's clock: `now` its logical time, `startedAt` when it began, `leaseUntil` the lease its attempts are held with. */
export type RunClock = { now: number; startedAt: number; leaseUntil: string };

/**
 * Sends attempts this run holds (leased until `clock.leaseUntil`) side by side (send-pool.ts: six at
 * once, three per endpoint while others wait, none started after the send window, none more to an
 * endpoint found slow), then records them and gives back the leases of those not started, in one D1
 * batch. The fan-out calls it with the first attempts it has just written, the consumer with those it
 * claimed.
 */
export async function attemptClaimed(
  ctx: DeliveryContext,
  claimed: readonly WebhookDelivery[],
  endpoints: ReadonlyMap<number, Webhook>,
  clock: RunClock,
): Promise<Map<string, DeliverResult>> {
  const results = new Map<string, DeliverResult>();
  if (claimed.length === 0) return results;
  const limits = {
    connections: SEND_CONNECTIONS,
    perKey: SENDS_PER_ENDPOINT,
    startBy: clock.startedAt + (ctx.sendWindowMs ?? SEND_WINDOW_MS),
    slowAfterMs: ctx.slowSendMs ?? SLOW_SEND_MS,
  };
  const {
    results: attempts,
    skipped,
    slowKeys,
  } = await runPooled(
    claimed,
    (row) => row.webhookId,
    limits,
    (row) => attemptOne(ctx, row, endpoints.get(row.webhookId), clock.now),
  );
  const released = skipped.map((i) => claimed[i]);
  const made = attempts.flatMap((attempt) => (attempt ? [attempt] : []));
  await recordAttempts(
    ctx.db,
    made.map((a) => a.recorded),
    { deliveryUuids: released.map((row) => row.deliveryUuid), leaseUntil: clock.leaseUntil },
  );
  for (const attempt of made) results.set(attempt.recorded.row.deliveryUuid, attempt.result);
  for (const row of released) {
    results.set(row.deliveryUuid, { kind: 'deferred', delaySeconds: slowKeys.has(row.webhookId) ? SLOW_ENDPOINT_PAUSE_SECONDS : 0 });
  }
  return results;
}

/** The queue wake-ups a run's results ask for: retries and later attempts when due, deferred ones after their pause. */
export function wakeUpsFor(results: ReadonlyMap<string, DeliverResult>, now: number): { deliveryUuid: string; delaySeconds: number }[] {
  const wakeUps: { deliveryUuid: string; delaySeconds: number }[] = [];
  for (const [deliveryUuid, result] of results) {
    if (result.kind === 'deferred') wakeUps.push({ deliveryUuid, delaySeconds: result.delaySeconds });
    const wakeAt = result.kind === 'attempted' ? result.retryAt : result.kind === 'not_due' ? result.dueAt : null;
    if (wakeAt) wakeUps.push({ deliveryUuid, delaySeconds: (Date.parse(wakeAt) - now) / 1000 });
  }
  return wakeUps;
}
