ALTER TABLE `accounts` ADD `stripe_plan_event_created` integer;--> statement-breakpoint
ALTER TABLE `stripe_events` ADD `subscription_id` text;--> statement-breakpoint
CREATE INDEX `stripe_events_subscription` ON `stripe_events` (`subscription_id`);