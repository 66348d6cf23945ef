CREATE TABLE `bulk_send_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`bulk_send_id` integer NOT NULL,
	`chunk` integer NOT NULL,
	`rows` text NOT NULL,
	`done_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bulk_send_chunks_chunk` ON `bulk_send_chunks` (`bulk_send_id`,`chunk`);--> statement-breakpoint
CREATE TABLE `bulk_send_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`bulk_send_id` integer NOT NULL,
	`row` integer NOT NULL,
	`status` text NOT NULL,
	`submission_id` integer,
	`errors` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bulk_send_rows_row` ON `bulk_send_rows` (`bulk_send_id`,`row`);--> statement-breakpoint
CREATE INDEX `bulk_send_rows_status` ON `bulk_send_rows` (`bulk_send_id`,`status`,`id`);--> statement-breakpoint
CREATE TABLE `bulk_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`created_by_id` integer,
	`status` text DEFAULT 'queued' NOT NULL,
	`total` integer NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`settings` text NOT NULL,
	`link_base` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`completed_at` text
);
--> statement-breakpoint
CREATE INDEX `bulk_sends_account` ON `bulk_sends` (`account_id`,`id`);--> statement-breakpoint
CREATE TRIGGER `bulk_sends_fence_insert` BEFORE INSERT ON `bulk_sends` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_sends_fence_update` BEFORE UPDATE ON `bulk_sends` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_sends_fence_delete` BEFORE DELETE ON `bulk_sends` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_send_chunks_fence_insert` BEFORE INSERT ON `bulk_send_chunks` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_send_chunks_fence_update` BEFORE UPDATE ON `bulk_send_chunks` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_send_chunks_fence_delete` BEFORE DELETE ON `bulk_send_chunks` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_send_rows_fence_insert` BEFORE INSERT ON `bulk_send_rows` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = NEW.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_send_rows_fence_update` BEFORE UPDATE ON `bulk_send_rows` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
--> statement-breakpoint
CREATE TRIGGER `bulk_send_rows_fence_delete` BEFORE DELETE ON `bulk_send_rows` FOR EACH ROW WHEN EXISTS (SELECT 1 FROM `account_fences` WHERE `account_id` = OLD.`account_id` AND `reason` <> 'lifted') BEGIN SELECT RAISE(ABORT, 'account_moving'); END;
