CREATE TABLE `signature_usage` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer,
	`submitter_id` integer,
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
ALTER TABLE `submitters` ADD `disclosure_accepted_at` text;--> statement-breakpoint
CREATE TRIGGER `signature_usage_fence_insert` BEFORE INSERT ON `signature_usage` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `signature_usage_fence_update` BEFORE UPDATE ON `signature_usage` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `signature_usage_fence_delete` BEFORE DELETE ON `signature_usage` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
