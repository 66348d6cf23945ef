// Reminder schedules (issue 33 › 4): the hours after a signer's invitation at which a signer who has not
// finished is reminded. Which schedule applies is fixed when the submission is created, as its signature
// level is: the submission's `preferences.reminder_schedule`, else the template's, else the account default.

/** At most this many reminders per signer. */
export const MAX_SCHEDULED_REMINDERS = 5;
/** Each delay is 1 hour to 30 days after the invitation. */
export const MIN_REMINDER_DELAY_HOURS = 1;
export const MAX_REMINDER_DELAY_HOURS = 720;

/** A sentence saying why `value` is not a reminder schedule, or null when it is one (`null` and `[]` send none). */
export function reminderScheduleProblem(value: unknown, name: string): string | null {
  if (value === null || value === undefined) return null;
  const ok =
    Array.isArray(value) &&
    value.length <= MAX_SCHEDULED_REMINDERS &&
    value.every(
      (h, i) => Number.isInteger(h) && h >= MIN_REMINDER_DELAY_HOURS && h <= MAX_REMINDER_DELAY_HOURS && (i === 0 || h > value[i - 1]),
    );
  return ok
    ? null
    : `${name} must list at most ${MAX_SCHEDULED_REMINDERS} whole numbers of hours after the invitation, ascending, each from ${MIN_REMINDER_DELAY_HOURS} to ${MAX_REMINDER_DELAY_HOURS} (30 days), such as [24, 72, 168].`;
}

function asSchedule(value: unknown): number[] | null | undefined {
  if (value === undefined || value === null) return undefined;
  return reminderScheduleProblem(value, '') === null ? (value as number[]) : undefined;
}

/**
 * The schedule a new submission keeps: its own preference, else its template's, else the account's.
 * An empty list at any level means no reminders (null when nothing is left to send).
 */
export function effectiveReminderSchedule(submission: unknown, template: unknown, account: number[] | null | undefined): number[] | null {
  const schedule = asSchedule(submission) ?? asSchedule(template) ?? asSchedule(account) ?? null;
  return schedule && schedule.length > 0 ? schedule : null;
}

/** How many of the schedule's delays have passed for a signer invited at `sentAt`. */
export function remindersPassed(schedule: readonly number[], sentAt: string, now: number): number {
  const invited = Date.parse(sentAt);
  return schedule.filter((hours) => invited + hours * 3_600_000 <= now).length;
}
