// The cron steps that keep the control database's identity tables small: stale sessions and spent
// password links are deleted, live ones are kept (src/scheduled/index.ts runs both).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { deleteStaleSessions, SESSION_IDLE_MS, SESSION_MAX_MS, startSession } from '../../src/services/identity/sessions';
import { deleteSpentPasswordTokens, issuePasswordToken, PASSWORD_TOKEN_TTL_MS } from '../../src/services/identity/password-tokens';
import { createAccount } from '../helpers';
import { sessionsOf } from './sign-in-fixtures';

const control = () => createDb(env.CONTROL_DB);

async function tokensOf(userId: number): Promise<{ id: number; purpose: string }[]> {
  const rows = await env.CONTROL_DB.prepare('SELECT id, purpose FROM password_tokens WHERE user_id = ? ORDER BY id')
    .bind(userId)
    .all<{ id: number; purpose: string }>();
  return rows.results;
}

describe('deleting stale sessions', () => {
  it('deletes idle and expired sessions and keeps a live one', async () => {
    const owner = await createAccount();
    const user = { id: owner.userId, accountId: owner.accountId };
    const now = Date.now();
    const live = await startSession(control(), { user, stage: 'full', now: now - 60_000 });
    await startSession(control(), { user, stage: 'full', now: now - SESSION_IDLE_MS - 1 });
    // Busy all along (seen a minute ago) but signed in longer than the absolute limit.
    const expired = await startSession(control(), { user, stage: 'full', now: now - SESSION_MAX_MS - 1 });
    await env.CONTROL_DB.prepare('UPDATE sessions SET last_seen_at = ? WHERE id = ?')
      .bind(new Date(now - 60_000).toISOString(), expired.session.id)
      .run();

    await deleteStaleSessions(control(), now);

    expect((await sessionsOf(owner.userId)).map((s) => s.id)).toEqual([live.session.id]);
  });

  it('deletes at most the limit in one run', async () => {
    const owner = await createAccount();
    const user = { id: owner.userId, accountId: owner.accountId };
    const now = Date.now();
    for (let i = 0; i < 3; i += 1) await startSession(control(), { user, stage: 'full', now: now - SESSION_MAX_MS - 1 });
    // Other files' stale rows may be older than these; a limit of 1 deletes exactly one row in all.
    const before = await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>();
    await deleteStaleSessions(control(), now, 1);
    const after = await env.CONTROL_DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>();
    expect(before!.n - after!.n).toBe(1);
  });
});

describe('deleting spent password links', () => {
  it('deletes used and expired links and keeps an unused one', async () => {
    const owner = await createAccount();
    const user = { id: owner.userId, accountId: owner.accountId };
    const now = Date.now();
    await issuePasswordToken(control(), user, 'reset', now - PASSWORD_TOKEN_TTL_MS.reset - 1);
    await issuePasswordToken(control(), user, 'email_change', now);
    await issuePasswordToken(control(), user, 'invite', now);
    const [, , used] = await tokensOf(owner.userId);
    await env.CONTROL_DB.prepare('UPDATE password_tokens SET used_at = ? WHERE id = ?').bind(new Date(now).toISOString(), used.id).run();

    await deleteSpentPasswordTokens(control(), now);

    expect((await tokensOf(owner.userId)).map((t) => t.purpose)).toEqual(['email_change']);
  });
});
