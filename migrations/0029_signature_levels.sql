CREATE TABLE `signature_usage` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer NOT NULL,
	`level` text NOT NULL,
	`cost_cents` integer NOT NULL,
	`month` text NOT NULL,
	`signed_at` text NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signature_usage_submitter` ON `signature_usage` (`submitter_id`);--> statement-breakpoint
CREATE INDEX `signature_usage_account_month` ON `signature_usage` (`account_id`,`month`,`id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `signature_level` text DEFAULT 'ses' NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `signature_provider` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `qes_provider_credentials` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `signature_level` text DEFAULT 'ses' NOT NULL;--> statement-breakpoint
ALTER TABLE `submitters` ADD `disclosure_version` text;--> statement-breakpoint
ALTER TABLE `submitters` ADD `disclosure_accepted_at` text;