DROP INDEX `custom_domains_hostname`;--> statement-breakpoint
CREATE UNIQUE INDEX `custom_domains_proven_hostname` ON `custom_domains` (`hostname`) WHERE "custom_domains"."status" <> 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX `custom_domains_account_hostname` ON `custom_domains` (`account_id`,`hostname`);--> statement-breakpoint
CREATE INDEX `custom_domains_hostname` ON `custom_domains` (`hostname`);--> statement-breakpoint
ALTER TABLE `users` ADD `mfa_failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `mfa_failures_since` text;--> statement-breakpoint
ALTER TABLE `users` ADD `pending_email` text;