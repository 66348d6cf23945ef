CREATE TABLE `password_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_tokens_token_hash` ON `password_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_tokens_user` ON `password_tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `password_tokens_expires` ON `password_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `users_email` ON `users` (lower("email"));