ALTER TABLE `accounts` ADD `move_lease` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `move_lease_expires_at` text;