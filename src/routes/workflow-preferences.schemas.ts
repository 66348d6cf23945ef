// The zod shapes of reminder schedules and retention periods (issue 33 › 4, 5), which the account
// settings, template preferences and submission preferences all take.
import { z } from '@hono/zod-openapi';
import { reminderScheduleProblem } from '../services/submissions/reminder-schedule';
import { MAX_RETENTION_DAYS } from '../services/submissions/retention-period';

/** Hours after the invitation; `[]` or null sends no reminders. */
export const reminderScheduleSchema = z
  .array(z.number())
  .superRefine((value, ctx) => {
    const problem = reminderScheduleProblem(value, 'reminder_schedule');
    if (problem) ctx.addIssue({ code: 'custom', message: problem.replace(/^reminder_schedule /, '') });
  })
  .openapi({
    description:
      'Hours after each signer’s invitation at which a signer who has not finished is reminded: at most 5, ascending, each 1 to 720 (30 days).',
    example: [24, 72, 168],
  });

/** Whole days after completion; null keeps documents. */
export const retentionDaysSchema = z
  .number()
  .min(1, 'must be at least 1 day')
  .max(MAX_RETENTION_DAYS, `must be at most ${MAX_RETENTION_DAYS} days`)
  // A refinement, not .int(): a fraction is a value to correct (422), not a value of the wrong type (400).
  .refine(Number.isInteger, 'must be a whole number of days')
  .openapi({ type: 'integer' });
