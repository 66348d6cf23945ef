// One delivery attempt: sign the stored body, POST it, judge the answer, record it and schedule the next
// attempt (spec › Events › Delivery, retry and safety; decisions.md › Webhooks).
import type { Db } from '../../db/client';
import { claimDueAttempts, pendingDueTimes, recordAttempts, type AttemptOutcome, type RecordedAttempt } from '../../db/queries/webhook-deliveries';
import { webhooksForDelivery } from '../../db/queries/webhooks';
import type { NewWebhookDelivery, Webhook, WebhookDelivery } from '../../db/schema/index';
import { readLimited } from '../../lib/request';
import { signDelivery } from './signature';
import { checkWebhookDestination } from './destination';
import type { HostResolver } from './dns-over-https';
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

export type DeliveryContext = {
  db: Db;
  policy: UrlPolicy;
  /** Looks up host names before each attempt; one per batch, so a batch asks once per name. */
  resolve: HostResolver;
  userAgent: string;
  /** Defaults to ATTEMPT_TIMEOUT_MS; tests shorten it rather than wait 10 s. */
  timeoutMs?: number;
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

export type SentAttempt = { outcome: AttemptOutcome; /** Not worth retrying: the destination is refused. */ final: boolean };

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
    return { final: verdict.kind === 'url', outcome: { ...base, status: 'failed', requestHeaders: null, errorMessage: `Not sent: ${verdict.reason}` } };
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
      outcome: { ...base, status: 'failed', requestHeaders, responseTimeMs: Date.now() - started, errorMessage: describeFetchError(err, timeoutMs) },
    };
  }
}

export type DeliverResult =
  | { kind: 'attempted'; status: 'success' | 'failed'; attempt: number; retryAt: string | null }
  /** The pending attempt exists but is due later: wake up again then. */
  | { kind: 'not_due'; dueAt: string }
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

/** One claimed attempt, sent (or closed off) and judged; nothing is written here. */
async function attemptClaimed(ctx: DeliveryContext, row: WebhookDelivery, hook: Webhook | undefined, now: number) {
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
 * Makes the due attempt of each delivery, if any: one claim, one endpoint read and one write batch for the
 * lot, the sends in parallel. Idempotent by delivery uuid: the lease makes a second wake-up for the same
 * delivery a no-op while the first runs, and a recorded attempt is never redone.
 */
export async function deliverDue(ctx: DeliveryContext, deliveryUuids: readonly string[], now: number): Promise<Map<string, DeliverResult>> {
  const nowIso = new Date(now).toISOString();
  const leaseIso = new Date(now + LEASE_MS).toISOString();
  const uuids = [...new Set(deliveryUuids)];
  // One statement whatever the batch size: the uuids are bound as one list (db/bound-parameters.ts).
  const claimed = await claimDueAttempts(ctx.db, uuids, nowIso, leaseIso);

  const results = new Map<string, DeliverResult>();
  const taken = new Set(claimed.map((row) => row.deliveryUuid));
  const rest = uuids.filter((uuid) => !taken.has(uuid));
  const due = await pendingDueTimes(ctx.db, rest);
  for (const uuid of rest) {
    const dueAt = due.get(uuid);
    results.set(uuid, dueAt && dueAt > nowIso ? { kind: 'not_due', dueAt } : { kind: 'idle' });
  }
  if (claimed.length === 0) return results;

  const hooks = await webhooksForDelivery(ctx.db, [...new Set(claimed.map((row) => row.webhookId))]);
  const attempts = await Promise.all(claimed.map((row) => attemptClaimed(ctx, row, hooks.get(row.webhookId), now)));
  await recordAttempts(ctx.db, attempts.map((a) => a.recorded));
  for (const [i, row] of claimed.entries()) results.set(row.deliveryUuid, attempts[i].result);
  return results;
}
