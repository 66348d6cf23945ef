ALTER TABLE `audit_events` ADD `details` text;--> statement-breakpoint
ALTER TABLE `events` ADD `held_for_seal` integer;--> statement-breakpoint
CREATE INDEX `events_held_for_seal` ON `events` (`held_for_seal`);