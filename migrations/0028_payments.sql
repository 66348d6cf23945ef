CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer NOT NULL,
	`field_uuid` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`description` text,
	`checkout_session_id` text,
	`reference` text,
	`failure_message` text,
	`paid_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_submitter_field` ON `payments` (`submitter_id`,`field_uuid`);--> statement-breakpoint
CREATE INDEX `payments_submission` ON `payments` (`submission_id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `payments_stripe_secret_key` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `payments_stripe_webhook_secret` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `payments_stripe_key_last4` text;--> statement-breakpoint
CREATE TRIGGER `payments_fence_insert` BEFORE INSERT ON `payments` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `payments_fence_update` BEFORE UPDATE ON `payments` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `payments_fence_delete` BEFORE DELETE ON `payments` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
