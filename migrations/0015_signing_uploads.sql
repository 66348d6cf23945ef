CREATE TABLE `signing_uploads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`r2_key` text NOT NULL,
	`byte_size` integer NOT NULL,
	`kept_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signing_uploads_uuid` ON `signing_uploads` (`uuid`);--> statement-breakpoint
CREATE INDEX `signing_uploads_account_bytes` ON `signing_uploads` (`account_id`,`byte_size`);--> statement-breakpoint
CREATE INDEX `signing_uploads_open` ON `signing_uploads` (`created_at`) WHERE "signing_uploads"."kept_at" IS NULL;--> statement-breakpoint
CREATE INDEX `signing_uploads_submission` ON `signing_uploads` (`submission_id`);--> statement-breakpoint
CREATE INDEX `template_documents_account_bytes` ON `template_documents` (`account_id`,`byte_size`);--> statement-breakpoint
CREATE INDEX `submission_documents_account_bytes` ON `submission_documents` (`account_id`,`byte_size`);