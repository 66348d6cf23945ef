ALTER TABLE `oauth_grants` ADD `audiences` text DEFAULT '["api"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `oauth_tokens` ADD `audiences` text DEFAULT '["api"]' NOT NULL;