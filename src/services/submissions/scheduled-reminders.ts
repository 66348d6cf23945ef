// Scheduled reminders (issue 33 › 4): the cron step that reminds signers who have not finished, at the
// hours after their invitation the submission's schedule names (reminder-schedule.ts). Each reminder is
// recorded as a manual one is (the reminder messages, the trail's `reminded`, the account audit trail's
// `submitter.remind`), and each is claimed by a guarded update in the same batch, so cron runs that
// overlap send it once. Completion, decline, expiry and archiving stop them: only unfinished signers of
// pending submissions nobody declined are due (db/queries/reminders.ts).
import { insertAuditEventStatement } from '../../db/queries/audit-events';
import { claimScheduledReminderStatement, listDueReminders } from '../../db/queries/reminders';
import { listSubmissionsByIds } from '../../db/queries/submissions';
import type { Submitter } from '../../db/schema/index';
import type { ShardScope } from '../../db/shards';
import { actOnSubmissions } from './act-on-submissions';
import { ChangeSet } from './change-set';
import { channelsFor } from './notifications';
import { remindersPassed } from './reminder-schedule';
import { trail } from './submission-events';
import { messageSource, queueMessages } from './submission-messages';
import type { SubmissionScope } from './submission-scope';
import type { StateContext } from './submission-state';

/** Signers one run reminds per shard: each is one batch of ~6 statements. */
export const REMINDER_BATCH = 50;

class AlreadyReminded extends Error {}

/** Reminds one due signer; false when another run got there first or nothing was due any more. */
async function remindOnSchedule(ctx: StateContext, scope: SubmissionScope, submitter: Submitter, now: number): Promise<boolean> {
  const schedule = scope.submission.reminderSchedule;
  if (!schedule || !submitter.sentAt || (submitter.status !== 'sent' && submitter.status !== 'opened')) return false;
  // Reminders missed while the cron was down are not sent one after another: one reminder, and the
  // count moves past every delay that has passed.
  const passed = remindersPassed(schedule, submitter.sentAt, now);
  if (passed <= submitter.scheduledReminders) return false;
  const at = new Date(now).toISOString();
  const cs = new ChangeSet(ctx.db);
  cs.guarded(
    claimScheduledReminderStatement(ctx.db, submitter.id, submitter.scheduledReminders, {
      scheduledReminders: passed,
      remindedAt: at,
      updatedAt: at,
    }),
  );
  const channels = channelsFor(scope.submission, submitter);
  queueMessages(ctx, cs, 'reminder', messageSource(ctx, scope), submitter, channels);
  const details = { automatic: true, reminder: passed, of: schedule.length, hours: schedule[passed - 1] };
  trail(ctx, cs, scope, submitter, 'reminded', details, at);
  cs.add(
    insertAuditEventStatement(ctx.db, {
      accountId: ctx.account.id,
      actor: 'scheduler',
      action: 'submitter.remind',
      resourceType: 'submitter',
      resourceId: String(submitter.id),
      method: 'CRON',
      path: 'reminder_schedule',
      status: 200,
      requestId: `reminder-${submitter.id}-${passed}`,
      details,
      createdAt: at,
    }),
  );
  try {
    await cs.commit(ctx.messagesQueue, () => new AlreadyReminded());
    return true;
  } catch (error) {
    if (error instanceof AlreadyReminded) return false;
    throw error;
  }
}

/** One shard's due reminders, at most `limit` signers a run; the rest wait for the next minute. */
export async function sendDueReminders(scope: ShardScope, now = Date.now(), limit = REMINDER_BATCH): Promise<{ reminded: number }> {
  const due = await listDueReminders(scope.db, new Date(now).toISOString(), limit);
  if (due.length === 0) return { reminded: 0 };
  const dueIds = new Set(due.map((d) => d.submitterId));
  const submissions = await listSubmissionsByIds(scope.db, [...new Set(due.map((d) => d.submissionId))]);
  let reminded = 0;
  await actOnSubmissions(scope, submissions, 'reminding', async (ctx, submission) => {
    for (const submitter of submission.submitters.filter((s) => dueIds.has(s.id))) {
      if (await remindOnSchedule(ctx, submission, submitter, now)) reminded++;
    }
    return true;
  });
  return { reminded };
}
