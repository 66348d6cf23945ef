CREATE TABLE `custom_domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`hostname` text NOT NULL,
	`website_url` text,
	`branding` text DEFAULT '{}' NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`verification_token` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`cloudflare_hostname_id` text,
	`certificate_status` text,
	`verified_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_domains_hostname` ON `custom_domains` (`hostname`);--> statement-breakpoint
CREATE INDEX `custom_domains_account` ON `custom_domains` (`account_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `custom_domains_one_default` ON `custom_domains` (`account_id`) WHERE "custom_domains"."is_default" = 1;