CREATE TABLE `payment_subscription_invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`stripe_invoice_id` text NOT NULL,
	`outcome` text NOT NULL,
	`payment_subscription_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`payment_subscription_id`) REFERENCES `payment_subscriptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_subscription_invoices_outcome` ON `payment_subscription_invoices` (`stripe_invoice_id`,`outcome`);--> statement-breakpoint
CREATE INDEX `payment_subscription_invoices_subscription` ON `payment_subscription_invoices` (`payment_subscription_id`);--> statement-breakpoint
CREATE TABLE `payment_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer NOT NULL,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`interval` text NOT NULL,
	`trial_days` integer,
	`description` text,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`start_attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text,
	`started_at` text,
	`canceled_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_subscriptions_submission` ON `payment_subscriptions` (`submission_id`);--> statement-breakpoint
CREATE INDEX `payment_subscriptions_status` ON `payment_subscriptions` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TRIGGER `payment_subscriptions_fence_insert` BEFORE INSERT ON `payment_subscriptions` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_subscriptions_fence_update` BEFORE UPDATE ON `payment_subscriptions` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_subscriptions_fence_delete` BEFORE DELETE ON `payment_subscriptions` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_subscription_invoices_fence_insert` BEFORE INSERT ON `payment_subscription_invoices` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_subscription_invoices_fence_update` BEFORE UPDATE ON `payment_subscription_invoices` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_subscription_invoices_fence_delete` BEFORE DELETE ON `payment_subscription_invoices` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
