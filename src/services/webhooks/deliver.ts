// One delivery attempt: sign the stored body, POST it, judge the answer, record it and schedule the next
// attempt (spec › Events › Delivery, retry and safety; decisions.md › Webhooks).
import type { Db } from '../../db/client';
import { claimDueAttempt, pendingAttempt, recordAttempt, type AttemptOutcome } from '../../db/queries/webhook-deliveries';
import { getWebhookForDelivery } from '../../db/queries/webhooks';
import type { NewWebhookDelivery, Webhook, WebhookDelivery } from '../../db/schema/index';
import { signWebhookBody } from './signature';
import { checkWebhookUrl, type UrlPolicy } from './url-policy';

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

async function readLimited(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > limit) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  if (!truncated) text += decoder.decode();
  return truncated ? `${text.slice(0, limit)}…` : text;
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
  // Re-checked on every attempt: the policy may have changed since the endpoint was saved.
  const verdict = checkWebhookUrl(hook.url, ctx.policy);
  if (!verdict.ok) {
    return { final: true, outcome: { ...base, status: 'failed', requestHeaders: null, errorMessage: `Not sent: ${verdict.reason}` } };
  }

  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': ctx.userAgent,
    'X-Webhook-Delivery-Id': row.deliveryUuid,
    'X-Webhook-Signature': await signWebhookBody(hook.secret, row.requestBody),
    'X-Webhook-Secret': hook.secret,
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

/**
 * Makes the due attempt of one delivery, if any. Idempotent by delivery uuid: the lease makes a second
 * message for the same delivery a no-op while the first runs, and a finished attempt is never redone.
 */
export async function deliverDue(ctx: DeliveryContext, deliveryUuid: string, now: number): Promise<DeliverResult> {
  const nowIso = new Date(now).toISOString();
  const row = await claimDueAttempt(ctx.db, deliveryUuid, nowIso, new Date(now + LEASE_MS).toISOString());
  if (!row) {
    const pending = await pendingAttempt(ctx.db, deliveryUuid);
    if (pending?.nextAttemptAt && pending.nextAttemptAt > nowIso) return { kind: 'not_due', dueAt: pending.nextAttemptAt };
    return { kind: 'idle' };
  }

  const hook = await getWebhookForDelivery(ctx.db, row.webhookId);
  let sent: SentAttempt;
  if (!hook || hook.deletedAt) sent = { final: true, outcome: closedOff(row, nowIso, 'Not sent: the endpoint was deleted.') };
  else if (!hook.enabled) sent = { final: true, outcome: closedOff(row, nowIso, 'Not sent: the endpoint is disabled.') };
  else sent = await sendAttempt(ctx, row, hook, nowIso);

  const delay = sent.outcome.status === 'failed' && !sent.final ? retryDelaySeconds(row.attempt) : null;
  // The retry is due `delay` after the attempt finished, not after it started.
  const retryAt = delay === null ? null : new Date(now + (sent.outcome.responseTimeMs ?? 0) + delay * 1000).toISOString();
  const next: NewWebhookDelivery | null =
    retryAt === null
      ? null
      : {
          accountId: row.accountId,
          webhookId: row.webhookId,
          eventId: row.eventId,
          event: row.event,
          deliveryUuid: row.deliveryUuid,
          attempt: row.attempt + 1,
          maxAttempts: row.maxAttempts,
          status: 'pending',
          url: sent.outcome.url,
          requestBody: row.requestBody,
          nextAttemptAt: retryAt,
          test: row.test,
          redeliveryOf: row.redeliveryOf,
        };
  await recordAttempt(ctx.db, row, sent.outcome, next);
  return { kind: 'attempted', status: sent.outcome.status as 'success' | 'failed', attempt: row.attempt, retryAt };
}
