DROP INDEX `template_documents_account_bytes`;--> statement-breakpoint
ALTER TABLE `template_documents` ADD `thumbnail_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `template_documents_account_bytes` ON `template_documents` (`account_id`,`byte_size`,`thumbnail_bytes`);