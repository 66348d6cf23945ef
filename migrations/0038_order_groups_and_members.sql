CREATE TABLE `submitter_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer NOT NULL,
	`position` integer NOT NULL,
	`slug` text NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`phone` text,
	`disclosure_version` text,
	`disclosure_accepted_at` text,
	`completed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submitter_members_slug` ON `submitter_members` (`slug`);--> statement-breakpoint
CREATE INDEX `submitter_members_submission` ON `submitter_members` (`submission_id`,`submitter_id`);--> statement-breakpoint
ALTER TABLE `submitters` ADD `signing_order` integer;--> statement-breakpoint
CREATE TRIGGER `submitter_members_fence_insert` BEFORE INSERT ON `submitter_members` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `submitter_members_fence_update` BEFORE UPDATE ON `submitter_members` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `submitter_members_fence_delete` BEFORE DELETE ON `submitter_members` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
