// Reminder schedules (issue 33 › 4): the account default and the template/submission preference, the
// cron step that reminds unfinished signers, and what stops it.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { shardScope } from '../../src/db/shards';
import { sendDueReminders } from '../../src/services/submissions/scheduled-reminders';
import { addUser, api, createAccount, shardOf, type TestAccount } from '../helpers';
import { page } from '../signing/fixtures';
import { completeValues, createTemplate, messagesTo, shardNumberOf, type TemplateFixture } from '../submission-fixtures';

const HOUR = 3_600_000;
let owner: TestAccount;
let pair: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  pair = await createTemplate(owner.token, ['Buyer', 'Seller']);
});

async function createPair(preferences: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, template = pair) {
  const tag = crypto.randomUUID().slice(0, 8);
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      submitters_order: 'parallel',
      preferences,
      submitters: ['Buyer', 'Seller'].map((role) => ({ role, email: `${role.toLowerCase()}-${tag}@example.com`, name: `${role} Person` })),
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return res.json;
}

/** Moves the signers' invitations `hours` into the past, as if the cron ran that much later. */
async function invitedHoursAgo(submissionId: number, hours: number) {
  await (await shardOf(owner.accountId))
    .prepare('UPDATE submitters SET sent_at = ? WHERE submission_id = ?')
    .bind(new Date(Date.now() - hours * HOUR).toISOString(), submissionId)
    .run();
}

async function runReminders() {
  return sendDueReminders(shardScope(env, await shardNumberOf(owner.accountId)), Date.now(), 500);
}

const reminders = async (email: string) => (await messagesTo(email)).filter((m) => m.kind === 'reminder');

describe('reminder schedule settings and preferences', () => {
  it('stores the account default with PUT /api/settings/reminders and reads it back', async () => {
    const a = await createAccount();
    const put = await api('PUT', '/api/settings/reminders', { token: a.token, body: { reminder_schedule: [24, 72, 168] } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ reminder_schedule: [24, 72, 168] });
    expect((await api('GET', '/api/settings/reminders', { token: a.token })).json).toEqual({ reminder_schedule: [24, 72, 168] });
    expect((await api('PUT', '/api/settings/reminders', { token: a.token, body: { reminder_schedule: null } })).json).toEqual({
      reminder_schedule: null,
    });
  });

  it('refuses a schedule that is not up to 5 ascending delays of 1 to 720 hours, with a sentence, changing nothing', async () => {
    const a = await createAccount();
    for (const bad of [[0], [721], [24, 12], [1, 2, 3, 4, 5, 6], [1.5]]) {
      const res = await api('PUT', '/api/settings/reminders', { token: a.token, body: { reminder_schedule: bad } });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.json.error)).toContain('ascending, each from 1 to 720');
    }
    expect((await api('GET', '/api/settings/reminders', { token: a.token })).json).toEqual({ reminder_schedule: null });
    const submission = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: pair.id, preferences: { reminder_schedule: [48, 24] }, submitters: [{ role: 'Buyer', email: 'x@example.com' }] },
    });
    expect(submission.status).toBe(422);
    expect(JSON.stringify(submission.json.error)).toContain('reminder_schedule');
  });

  it('answers 401 without a token, 403 without account scopes and 403 for a non-admin writer', async () => {
    expect((await api('GET', '/api/settings/reminders')).status).toBe(401);
    const reader = await addUser(owner.accountId, 'admin', ['submissions:read']);
    const res = await api('GET', '/api/settings/reminders', { token: reader.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:read');
    const editor = await addUser(owner.accountId, 'editor');
    expect((await api('PUT', '/api/settings/reminders', { token: editor.token, body: { reminder_schedule: [24] } })).status).toBe(403);
  });

  it('fixes the schedule at creation: the submission’s own, else the template’s, else the account default', async () => {
    const a = await createAccount({ plan: 'pro' });
    const template = await createTemplate(a.token, ['Buyer']);
    const create = async (preferences: Record<string, unknown>) =>
      (
        await api('POST', '/api/submissions', {
          token: a.token,
          body: { template_id: template.id, preferences, submitters: [{ role: 'Buyer', email: 'b@example.com' }] },
        })
      ).json;
    expect((await create({})).reminder_schedule).toBeNull();
    await api('PUT', '/api/settings/reminders', { token: a.token, body: { reminder_schedule: [5] } });
    expect((await create({})).reminder_schedule).toEqual([5]);
    const put = await api('PUT', `/api/templates/${template.id}`, {
      token: a.token,
      body: { preferences: { reminder_schedule: [10, 20] } },
    });
    expect(put.status).toBe(200);
    expect((await create({})).reminder_schedule).toEqual([10, 20]);
    expect((await create({ reminder_schedule: [30] })).reminder_schedule).toEqual([30]);
    expect((await create({ reminder_schedule: [] })).reminder_schedule).toBeNull();
  });
});

describe('scheduled reminders', () => {
  it('reminds each unfinished signer once per delay, recorded like a manual reminder, with the reminder tokens', async () => {
    const s = await createPair({ reminder_schedule: [24, 72], reminder_subject: 'Still waiting, {{submitter.name}}' });
    await invitedHoursAgo(s.id, 2);
    await runReminders();
    expect(await reminders(s.submitters[0].email)).toHaveLength(0);

    await invitedHoursAgo(s.id, 25);
    await runReminders();
    await runReminders();
    const first = await reminders(s.submitters[0].email);
    expect(first).toHaveLength(1);
    expect(first[0].subject).toBe('Still waiting, Buyer Person');
    expect(first[0].text).toContain(`/s/${s.submitters[0].slug}`);
    expect(await reminders(s.submitters[1].email)).toHaveLength(1);

    const db = await shardOf(owner.accountId);
    const trail = await db
      .prepare("SELECT data FROM submission_events WHERE submission_id = ? AND action = 'reminded' ORDER BY id")
      .bind(s.id)
      .all<{ data: string }>();
    expect(trail.results.map((r) => JSON.parse(r.data))).toEqual([
      { automatic: true, reminder: 1, of: 2, hours: 24 },
      { automatic: true, reminder: 1, of: 2, hours: 24 },
    ]);
    const audit = await db
      .prepare("SELECT actor, resource_id FROM audit_events WHERE account_id = ? AND action = 'submitter.remind' AND resource_id = ?")
      .bind(owner.accountId, String(s.submitters[0].id))
      .all<{ actor: string }>();
    expect(audit.results).toEqual([{ actor: 'scheduler', resource_id: String(s.submitters[0].id) }]);
    const read = (await api('GET', `/api/submitters/${s.submitters[0].id}`, { token: owner.token })).json;
    expect(read.status).toBe('sent');

    await invitedHoursAgo(s.id, 73);
    await runReminders();
    expect(await reminders(s.submitters[0].email)).toHaveLength(2);
    await invitedHoursAgo(s.id, 700);
    await runReminders();
    expect(await reminders(s.submitters[0].email)).toHaveLength(2);
  });

  it('sends one reminder when two cron runs overlap', async () => {
    const s = await createPair({ reminder_schedule: [1] });
    await invitedHoursAgo(s.id, 2);
    await Promise.all([runReminders(), runReminders(), runReminders()]);
    expect(await reminders(s.submitters[0].email)).toHaveLength(1);
    expect(await reminders(s.submitters[1].email)).toHaveLength(1);
  });

  it('sends one reminder for delays missed while the cron was not running', async () => {
    const s = await createPair({ reminder_schedule: [1, 2, 3] });
    await invitedHoursAgo(s.id, 5);
    await runReminders();
    await runReminders();
    expect(await reminders(s.submitters[0].email)).toHaveLength(1);
  });

  it('stops for a signer who completed and for submissions declined, expired or archived', async () => {
    const completed = await createPair({ reminder_schedule: [1] });
    expect(
      (
        await api('PUT', `/api/submitters/${completed.submitters[0].id}`, {
          token: owner.token,
          body: { values: completeValues('Buyer'), completed: true },
        })
      ).status,
    ).toBe(200);
    const declined = await createPair({ reminder_schedule: [1] });
    expect((await page('POST', `/s/${declined.submitters[0].slug}/decline`, { body: { reason: 'Wrong amount' } })).status).toBe(200);
    const archived = await createPair({ reminder_schedule: [1] });
    expect((await api('DELETE', `/api/submissions/${archived.id}`, { token: owner.token })).status).toBe(200);
    const expired = await createPair({ reminder_schedule: [1] }, { expire_at: new Date(Date.now() + 60_000).toISOString() });
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), expired.id)
      .run();
    for (const s of [completed, declined, archived, expired]) await invitedHoursAgo(s.id, 2);
    await runReminders();
    expect(await reminders(completed.submitters[0].email)).toHaveLength(0);
    expect(await reminders(completed.submitters[1].email)).toHaveLength(1);
    for (const s of [declined, archived, expired]) {
      expect(await reminders(s.submitters[0].email)).toHaveLength(0);
      expect(await reminders(s.submitters[1].email)).toHaveLength(0);
    }
  });
});
