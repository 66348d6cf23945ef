ALTER TABLE `accounts` ADD `document_links_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `document_link_expiry_days` integer DEFAULT 30;--> statement-breakpoint
ALTER TABLE `accounts` ADD `document_link_generation` integer DEFAULT 0 NOT NULL;