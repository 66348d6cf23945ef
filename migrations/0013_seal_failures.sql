ALTER TABLE `submissions` ADD `seal_failed_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `seal_failure` text;