// Rules for creating and changing webhook endpoints (spec › Webhooks; decisions.md › Webhooks).
import type { Db } from '../../db/client';
import { countWebhooks, getWebhook, hasEnabledWebhook, insertWebhook, updateWebhook, type WebhookChanges } from '../../db/queries/webhooks';
import { setHasWebhooks } from '../../db/queries/accounts';
import type { Webhook } from '../../db/schema/index';
import { ApiError, notFound, unprocessable } from '../../lib/errors';
import { EVENT_NAMES, isEventName } from '../../lib/events';
import { generateWebhookSecret, SECRET_PATTERN } from './secret';
import { checkWebhookDestination } from './destination';
import type { HostResolver } from './dns-over-https';
import type { UrlPolicy } from './url-policy';

/** Each event fans out to every endpoint; the cap keeps one event's fan-out bounded. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 50;

export type WebhookInput = { url?: string; events?: string[]; secret?: string; enabled?: boolean };

/** What judging a destination needs: the URL policy and a DNS resolver (DNS-over-HTTPS). */
export type DestinationRules = { policy: UrlPolicy; resolve: HostResolver };

/**
 * Every problem as its own sentence, so a caller can fix them all at once; `unavailable` when the URL's
 * host could not be looked up (the resolver failed), which is not the caller's to fix.
 */
export async function webhookInputProblems(
  input: WebhookInput,
  rules: DestinationRules,
): Promise<{ problems: string[]; unavailable: string | null }> {
  const problems: string[] = [];
  let unavailable: string | null = null;
  if (input.url !== undefined) {
    const verdict = await checkWebhookDestination(input.url.trim(), rules.policy, rules.resolve);
    if (!verdict.ok && verdict.kind === 'unavailable') unavailable = verdict.reason;
    else if (!verdict.ok) problems.push(verdict.reason);
  }
  if (input.events) {
    const unknown = input.events.filter((e) => !isEventName(e));
    if (unknown.length) {
      problems.push(
        `events has unknown ${unknown.length === 1 ? 'name' : 'names'} ${unknown.map((e) => `"${e}"`).join(', ')}; valid names are ${EVENT_NAMES.join(', ')}.`,
      );
    }
  }
  if (input.secret !== undefined && !SECRET_PATTERN.test(input.secret)) {
    problems.push(
      'secret must be 16 to 128 visible ASCII characters without spaces (it is sent as a header); omit it to have one generated.',
    );
  }
  return { problems, unavailable };
}

function normalised(input: WebhookInput): WebhookChanges {
  const changes: WebhookChanges = {};
  if (input.url !== undefined) changes.url = new URL(input.url.trim()).toString();
  if (input.events !== undefined) changes.events = [...new Set(input.events)];
  if (input.secret !== undefined) changes.secret = input.secret;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  return changes;
}

async function assertValid(input: WebhookInput, rules: DestinationRules) {
  const { problems, unavailable } = await webhookInputProblems(input, rules);
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  // 502: a service the operation depends on failed (the route's declared meaning); the caller may retry.
  if (unavailable) throw new ApiError(502, unavailable);
}

export async function createWebhook(
  db: Db,
  accountId: number,
  input: WebhookInput & { url: string },
  rules: DestinationRules,
): Promise<Webhook> {
  await assertValid(input, rules);
  if ((await countWebhooks(db, accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
    throw unprocessable(`An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhook endpoints; delete one first.`);
  }
  const changes = normalised(input);
  return insertWebhook(db, {
    accountId,
    url: changes.url!,
    events: changes.events ?? [],
    secret: changes.secret ?? generateWebhookSecret(),
    enabled: changes.enabled ?? true,
  });
}

export async function changeWebhook(
  db: Db,
  accountId: number,
  id: number,
  input: WebhookInput,
  rules: DestinationRules,
  at: string,
): Promise<Webhook> {
  // 404 before 422: another account's id must not learn anything from validation.
  if (!(await getWebhook(db, accountId, id))) throw notFound('Webhook');
  await assertValid(input, rules);
  const row = await updateWebhook(db, accountId, id, normalised(input), at);
  if (!row) throw notFound('Webhook');
  return row;
}

/**
 * Copies "has an enabled endpoint" from the account's shard to its control row after an endpoint
 * changed, so authentication knows it without reading the shard (accounts.has_webhooks). Read after the
 * change committed, so the last writer records a state at least as new as its own change.
 */
export async function recordWebhookPresence(control: Db, shard: Db, accountId: number): Promise<void> {
  await setHasWebhooks(control, accountId, await hasEnabledWebhook(shard, accountId));
}
