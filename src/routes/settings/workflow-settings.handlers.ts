// Handlers for the account's reminder schedule and retention period.
import { updateAccount } from '../../db/queries/accounts';
import { reschedulePurges } from '../../db/queries/retention';
import type { AppRouteHandler } from '../app-route-handler';
import type * as routes from './workflow-settings.routes';

export const getReminderSettings: AppRouteHandler<typeof routes.getReminderSettings> = (c) =>
  c.json({ reminder_schedule: c.var.principal.account.reminderSchedule ?? null }, 200);

export const updateReminderSettings: AppRouteHandler<typeof routes.updateReminderSettings> = async (c) => {
  const { reminder_schedule } = c.req.valid('json');
  const schedule = reminder_schedule && reminder_schedule.length > 0 ? reminder_schedule : null;
  const account = await updateAccount(c.var.control, c.var.principal.account.id, { reminderSchedule: schedule });
  c.set('audit', { action: 'account.reminders.update', resourceType: 'account', resourceId: account.id });
  return c.json({ reminder_schedule: account.reminderSchedule ?? null }, 200);
};

export const getRetentionSettings: AppRouteHandler<typeof routes.getRetentionSettings> = (c) =>
  c.json({ documents_days: c.var.principal.account.documentsRetentionDays ?? null }, 200);

export const updateRetentionSettings: AppRouteHandler<typeof routes.updateRetentionSettings> = async (c) => {
  const { documents_days } = c.req.valid('json');
  const account = await updateAccount(c.var.control, c.var.principal.account.id, { documentsRetentionDays: documents_days });
  // The account row is in the control database, the submissions on its shard: a failure here answers
  // 500 after the setting changed, and repeating the PUT reschedules them.
  await reschedulePurges(c.var.scope.db, account.id, documents_days);
  c.set('audit', { action: 'account.retention.update', resourceType: 'account', resourceId: account.id });
  return c.json({ documents_days: account.documentsRetentionDays ?? null }, 200);
};
