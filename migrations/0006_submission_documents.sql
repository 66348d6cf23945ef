CREATE TABLE `submission_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`template_document_id` integer NOT NULL,
	`filename` text NOT NULL,
	`r2_key` text NOT NULL,
	`sha256` text NOT NULL,
	`original_sha256` text NOT NULL,
	`byte_size` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`template_document_id`) REFERENCES `template_documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submission_documents_document` ON `submission_documents` (`submission_id`,`template_document_id`);--> statement-breakpoint
CREATE INDEX `submission_documents_account_sha256` ON `submission_documents` (`account_id`,`sha256`);