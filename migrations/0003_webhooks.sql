CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`webhook_id` integer NOT NULL,
	`event_id` integer,
	`event` text NOT NULL,
	`delivery_uuid` text NOT NULL,
	`attempt` integer NOT NULL,
	`max_attempts` integer NOT NULL,
	`status` text NOT NULL,
	`url` text NOT NULL,
	`request_body` text NOT NULL,
	`request_headers` text,
	`http_status` integer,
	`response_body` text,
	`response_time_ms` integer,
	`error_message` text,
	`next_attempt_at` text,
	`lease_until` text,
	`attempted_at` text,
	`delivered_at` text,
	`test` integer DEFAULT false NOT NULL,
	`redelivery_of` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_fan_out` ON `webhook_deliveries` (`event_id`,`webhook_id`,`attempt`) WHERE "webhook_deliveries"."redelivery_of" IS NULL AND "webhook_deliveries"."test" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_attempt` ON `webhook_deliveries` (`delivery_uuid`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`deleted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhooks_account` ON `webhooks` (`account_id`,`id`);