CREATE TABLE `mfa_backup_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mfa_backup_codes_user_hash` ON `mfa_backup_codes` (`user_id`,`code_hash`);--> statement-breakpoint
ALTER TABLE `users` ADD `mfa_last_step` integer;