ALTER TABLE `accounts` ADD `embed_key` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `embed_key_previous` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `embed_key_previous_until` text;