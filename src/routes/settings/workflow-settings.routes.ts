// Route declarations for the account's reminder schedule and retention period (issue 33 › 4, 5).
import { z } from '@hono/zod-openapi';
import { tenantRoute } from '../openapi-helpers';
import { reminderScheduleSchema, retentionDaysSchema } from '../workflow-preferences.schemas';

const tags = ['Settings'];
const read = { scopes: ['account:read'] } as const;
const write = { scopes: ['account:write'], admin: true } as const;
const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });

export const reminderSettingsSchema = z
  .object({
    reminder_schedule: reminderScheduleSchema.nullable().openapi({
      description:
        'The account default: hours after each signer’s invitation at which signers who have not finished are reminded (at most 5, ascending, ' +
        '1 to 720). Submissions created from now on take it unless they or their template name their own; null sends none.',
      example: [24, 72, 168],
    }),
  })
  .strict()
  .openapi('ReminderSettings');

export const retentionSettingsSchema = z
  .object({
    documents_days: retentionDaysSchema.nullable().openapi({
      description:
        'Days after completion that sealed documents, uploads and field values are kept; then the submission is erased (values replaced ' +
        'by their SHA-256, audit trail and document hashes kept). A template’s `preferences.retention_days` overrides it; null keeps them.',
      example: 365,
    }),
  })
  .strict()
  .openapi('RetentionSettings');

export const getReminderSettings = tenantRoute(read, {
  method: 'get',
  path: '/settings/reminders',
  tags,
  summary: 'The account’s default reminder schedule',
  responses: { 200: { description: 'The default schedule.', ...json(reminderSettingsSchema) } },
});

export const updateReminderSettings = tenantRoute(write, {
  method: 'put',
  path: '/settings/reminders',
  tags,
  summary: 'Set the account’s default reminder schedule',
  description: 'Applies to submissions created from now on; each submission keeps the schedule it was created with.',
  request: { body: { required: true, ...json(reminderSettingsSchema) } },
  responses: { 200: { description: 'The default schedule as stored.', ...json(reminderSettingsSchema) } },
});

export const getRetentionSettings = tenantRoute(read, {
  method: 'get',
  path: '/settings/retention',
  tags,
  summary: 'How long the account keeps completed submissions’ documents',
  responses: { 200: { description: 'The retention period.', ...json(retentionSettingsSchema) } },
});

export const updateRetentionSettings = tenantRoute(write, {
  method: 'put',
  path: '/settings/retention',
  tags,
  summary: 'Set how long the account keeps completed submissions’ documents',
  description:
    'Applies to every completed submission not yet erased whose template names no `retention_days` of its own, those completed ' +
    'before the change included: a period that has already run out erases them within the next runs of the retention step ' +
    '(a bounded batch a minute per shard). Submissions under a legal hold are never erased.',
  request: { body: { required: true, ...json(retentionSettingsSchema) } },
  responses: { 200: { description: 'The retention period as stored.', ...json(retentionSettingsSchema) } },
});
