CREATE TABLE `submission_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer,
	`action` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `submission_events_submission` ON `submission_events` (`submission_id`,`id`);--> statement-breakpoint
CREATE TABLE `submissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`slug` text NOT NULL,
	`status` text NOT NULL,
	`submitters_order` text DEFAULT 'sequential' NOT NULL,
	`send_email` integer DEFAULT true NOT NULL,
	`auto_sign` integer DEFAULT false NOT NULL,
	`source` text DEFAULT 'api' NOT NULL,
	`link_base` text NOT NULL,
	`template_version` integer NOT NULL,
	`document_ids` text NOT NULL,
	`preferences` text NOT NULL,
	`metadata` text NOT NULL,
	`created_by_id` integer,
	`expire_at` text,
	`sent_at` text,
	`completed_at` text,
	`expired_at` text,
	`archived_at` text,
	`archived_from` text,
	`sealed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submissions_slug` ON `submissions` (`slug`);--> statement-breakpoint
CREATE INDEX `submissions_account` ON `submissions` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `submissions_account_template` ON `submissions` (`account_id`,`template_id`,`id`);--> statement-breakpoint
CREATE INDEX `submissions_account_created` ON `submissions` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_expiry` ON `submissions` (`expire_at`) WHERE "submissions"."status" = 'pending' AND "submissions"."expire_at" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `submitters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`slug` text NOT NULL,
	`role_uuid` text NOT NULL,
	`role` text NOT NULL,
	`position` integer NOT NULL,
	`email` text,
	`name` text,
	`phone` text,
	`external_id` text,
	`status` text DEFAULT 'waiting' NOT NULL,
	`values` text NOT NULL,
	`prefilled` text DEFAULT '[]' NOT NULL,
	`metadata` text NOT NULL,
	`send_email` integer DEFAULT true NOT NULL,
	`send_sms` integer DEFAULT false NOT NULL,
	`sent_at` text,
	`opened_at` text,
	`started_at` text,
	`completed_at` text,
	`declined_at` text,
	`decline_reason` text,
	`expired_at` text,
	`reminded_at` text,
	`completed_ip` text,
	`completed_user_agent` text,
	`verification_method` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submitters_slug` ON `submitters` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `submitters_uuid` ON `submitters` (`uuid`);--> statement-breakpoint
CREATE INDEX `submitters_submission` ON `submitters` (`submission_id`,`position`);--> statement-breakpoint
CREATE INDEX `submitters_account` ON `submitters` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `submitters_account_external_id` ON `submitters` (`account_id`,`external_id`);