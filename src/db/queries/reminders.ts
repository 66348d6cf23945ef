// The reminder step's statements (issue 33 › 4; src/services/submissions/scheduled-reminders.ts): which
// signers are due a scheduled reminder, and the claim that lets only one run send it.
import { and, eq, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { notFenced } from '../fences';
import { submissions, submitters, type NewSubmitter } from '../schema/index';

/**
 * Signers due their next scheduled reminder at `nowIso`: invited and not finished (`sent` or `opened`) in
 * a pending submission that has a schedule, has not passed its deadline and that nobody declined, whose
 * invitation plus the next delay lies in the past. Reads only pending submissions with a schedule
 * (index submissions_reminding), at most `limit` signers, oldest first.
 */
export async function listDueReminders(db: Db, nowIso: string, limit: number): Promise<{ submissionId: number; submitterId: number }[]> {
  return db
    .select({ submissionId: submitters.submissionId, submitterId: submitters.id })
    .from(submissions)
    .innerJoin(submitters, eq(submitters.submissionId, submissions.id))
    .where(
      and(
        eq(submissions.status, 'pending'),
        sql`${submissions.reminderSchedule} IS NOT NULL`,
        sql`(${submissions.expireAt} IS NULL OR ${submissions.expireAt} > ${nowIso})`,
        inList(submitters.status, ['sent', 'opened']),
        sql`${submitters.sentAt} IS NOT NULL`,
        sql`${submitters.scheduledReminders} < json_array_length(${submissions.reminderSchedule})`,
        sql`julianday(${submitters.sentAt}) + json_extract(${submissions.reminderSchedule}, '$[' || ${submitters.scheduledReminders} || ']') / 24.0 <= julianday(${nowIso})`,
        sql`NOT EXISTS (SELECT 1 FROM submitters AS d WHERE d.submission_id = ${submissions.id} AND d.status = 'declined')`,
        notFenced(submissions.accountId),
      ),
    )
    .orderBy(submitters.id)
    .limit(limit);
}

/**
 * Moves a signer from `count` scheduled reminders past to the new count, only while they are still
 * unfinished and no other run moved them: the guarded statement of one scheduled reminder (two cron
 * runs at once send it once).
 */
export function claimScheduledReminderStatement(db: Db, submitterId: number, count: number, values: Partial<NewSubmitter>) {
  return db
    .update(submitters)
    .set(values)
    .where(and(eq(submitters.id, submitterId), eq(submitters.scheduledReminders, count), inList(submitters.status, ['sent', 'opened'])));
}
