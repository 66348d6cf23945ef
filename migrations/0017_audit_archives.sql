CREATE TABLE `audit_archives` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`month` text NOT NULL,
	`first_id` integer NOT NULL,
	`last_id` integer NOT NULL,
	`event_count` integer NOT NULL,
	`sha256` text NOT NULL,
	`r2_key` text NOT NULL,
	`byte_size` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_archives_account_first` ON `audit_archives` (`account_id`,`first_id`);--> statement-breakpoint
CREATE INDEX `audit_archives_account_last` ON `audit_archives` (`account_id`,`last_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `audit_archives_key` ON `audit_archives` (`r2_key`);--> statement-breakpoint
CREATE INDEX `audit_archives_month` ON `audit_archives` (`month`,`account_id`);--> statement-breakpoint
CREATE INDEX `audit_events_created` ON `audit_events` (`created_at`);