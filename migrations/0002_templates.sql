CREATE TABLE `saved_fields` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`author_id` integer,
	`name` text NOT NULL,
	`field` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `saved_fields_account` ON `saved_fields` (`account_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `saved_fields_account_name` ON `saved_fields` (`account_id`,lower("name"));--> statement-breakpoint
CREATE TABLE `template_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`sha256` text NOT NULL,
	`page_count` integer NOT NULL,
	`page_dimensions` text NOT NULL,
	`r2_key` text NOT NULL,
	`position` integer NOT NULL,
	`removed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `template_documents_template` ON `template_documents` (`template_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `template_documents_current_uuid` ON `template_documents` (`template_id`,`uuid`) WHERE "template_documents"."removed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `template_documents_r2_key` ON `template_documents` (`r2_key`);--> statement-breakpoint
CREATE TABLE `template_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`version` integer NOT NULL,
	`author_id` integer,
	`changes` text NOT NULL,
	`snapshot` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `template_versions_template_version` ON `template_versions` (`template_id`,`version`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`public_id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`external_id` text,
	`folder_name` text DEFAULT 'Default' NOT NULL,
	`source` text DEFAULT 'api' NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`author_id` integer,
	`submitters` text NOT NULL,
	`fields` text NOT NULL,
	`preferences` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`archived_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `templates_public_id` ON `templates` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `templates_slug` ON `templates` (`slug`);--> statement-breakpoint
CREATE INDEX `templates_account` ON `templates` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `templates_account_external_id` ON `templates` (`account_id`,`external_id`);