ALTER TABLE `submissions` ADD `seal_sweeps` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `seal_swept_at` text;