ALTER TABLE `accounts` ADD `reminder_schedule` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `documents_retention_days` integer;--> statement-breakpoint
ALTER TABLE `submissions` ADD `reminder_schedule` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `legal_hold_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `purge_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `erasure_started_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `erased_at` text;--> statement-breakpoint
CREATE INDEX `submissions_purge` ON `submissions` (`purge_at`) WHERE "submissions"."purge_at" IS NOT NULL AND "submissions"."erased_at" IS NULL;--> statement-breakpoint
CREATE INDEX `submissions_erased` ON `submissions` (`account_id`) WHERE "submissions"."erased_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `submissions_reminding` ON `submissions` (`id`) WHERE "submissions"."status" = 'pending' AND "submissions"."reminder_schedule" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `submitters` ADD `scheduled_reminders` integer DEFAULT 0 NOT NULL;