-- Tenant tables lose their foreign keys to accounts and users, which live in the control database
-- (docs/scaling.md). Constraints are checked at commit, so the rebuilds below pass on a database with rows.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `id_blocks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shard` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `__new_audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer,
	`access_token_id` integer,
	`actor` text,
	`action` text NOT NULL,
	`resource_type` text,
	`resource_id` text,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`ip` text,
	`user_agent` text,
	`request_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_audit_events`("id", "account_id", "user_id", "access_token_id", "actor", "action", "resource_type", "resource_id", "method", "path", "status", "ip", "user_agent", "request_id", "created_at") SELECT "id", "account_id", "user_id", "access_token_id", "actor", "action", "resource_type", "resource_id", "method", "path", "status", "ip", "user_agent", "request_id", "created_at" FROM `audit_events`;--> statement-breakpoint
DROP TABLE `audit_events`;--> statement-breakpoint
ALTER TABLE `__new_audit_events` RENAME TO `audit_events`;--> statement-breakpoint
CREATE INDEX `audit_events_account` ON `audit_events` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `__new_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`event` text NOT NULL,
	`data` text NOT NULL,
	`dispatched_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_events`("id", "account_id", "event", "data", "dispatched_at", "created_at") SELECT "id", "account_id", "event", "data", "dispatched_at", "created_at" FROM `events`;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
ALTER TABLE `__new_events` RENAME TO `events`;--> statement-breakpoint
CREATE INDEX `events_account` ON `events` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `events_undispatched` ON `events` (`dispatched_at`,`id`);--> statement-breakpoint
CREATE TABLE `__new_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`channel` text NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text,
	`text` text NOT NULL,
	`html` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`transport` text,
	`provider_id` text,
	`error` text,
	`submission_id` integer,
	`submitter_id` integer,
	`claimed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`sent_at` text
);
--> statement-breakpoint
INSERT INTO `__new_messages`("id", "account_id", "channel", "kind", "recipient", "subject", "text", "html", "status", "attempts", "transport", "provider_id", "error", "submission_id", "submitter_id", "claimed_at", "created_at", "sent_at") SELECT "id", "account_id", "channel", "kind", "recipient", "subject", "text", "html", "status", "attempts", "transport", "provider_id", "error", "submission_id", "submitter_id", "claimed_at", "created_at", "sent_at" FROM `messages`;--> statement-breakpoint
DROP TABLE `messages`;--> statement-breakpoint
ALTER TABLE `__new_messages` RENAME TO `messages`;--> statement-breakpoint
CREATE INDEX `messages_account` ON `messages` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `messages_status` ON `messages` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `messages_created` ON `messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `__new_saved_fields` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`author_id` integer,
	`name` text NOT NULL,
	`field` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_saved_fields`("id", "account_id", "author_id", "name", "field", "created_at", "updated_at") SELECT "id", "account_id", "author_id", "name", "field", "created_at", "updated_at" FROM `saved_fields`;--> statement-breakpoint
DROP TABLE `saved_fields`;--> statement-breakpoint
ALTER TABLE `__new_saved_fields` RENAME TO `saved_fields`;--> statement-breakpoint
CREATE INDEX `saved_fields_account` ON `saved_fields` (`account_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `saved_fields_account_name` ON `saved_fields` (`account_id`,lower("name"));--> statement-breakpoint
CREATE TABLE `__new_template_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`sha256` text NOT NULL,
	`page_count` integer NOT NULL,
	`page_dimensions` text NOT NULL,
	`r2_key` text NOT NULL,
	`position` integer NOT NULL,
	`removed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_template_documents`("id", "account_id", "template_id", "uuid", "filename", "content_type", "byte_size", "sha256", "page_count", "page_dimensions", "r2_key", "position", "removed_at", "created_at") SELECT "id", "account_id", "template_id", "uuid", "filename", "content_type", "byte_size", "sha256", "page_count", "page_dimensions", "r2_key", "position", "removed_at", "created_at" FROM `template_documents`;--> statement-breakpoint
DROP TABLE `template_documents`;--> statement-breakpoint
ALTER TABLE `__new_template_documents` RENAME TO `template_documents`;--> statement-breakpoint
CREATE INDEX `template_documents_template` ON `template_documents` (`template_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `template_documents_current_uuid` ON `template_documents` (`template_id`,`uuid`) WHERE "template_documents"."removed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `template_documents_r2_key` ON `template_documents` (`r2_key`);--> statement-breakpoint
CREATE INDEX `template_documents_account_bytes` ON `template_documents` (`account_id`,`byte_size`);--> statement-breakpoint
CREATE TABLE `__new_template_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`version` integer NOT NULL,
	`author_id` integer,
	`changes` text NOT NULL,
	`snapshot` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_template_versions`("id", "account_id", "template_id", "version", "author_id", "changes", "snapshot", "created_at") SELECT "id", "account_id", "template_id", "version", "author_id", "changes", "snapshot", "created_at" FROM `template_versions`;--> statement-breakpoint
DROP TABLE `template_versions`;--> statement-breakpoint
ALTER TABLE `__new_template_versions` RENAME TO `template_versions`;--> statement-breakpoint
CREATE UNIQUE INDEX `template_versions_template_version` ON `template_versions` (`template_id`,`version`);--> statement-breakpoint
CREATE TABLE `__new_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`public_id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`external_id` text,
	`folder_name` text DEFAULT 'Default' NOT NULL,
	`source` text DEFAULT 'api' NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`author_id` integer,
	`submitters` text NOT NULL,
	`fields` text NOT NULL,
	`preferences` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`archived_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_templates`("id", "account_id", "public_id", "slug", "name", "external_id", "folder_name", "source", "shared", "author_id", "submitters", "fields", "preferences", "version", "archived_at", "created_at", "updated_at") SELECT "id", "account_id", "public_id", "slug", "name", "external_id", "folder_name", "source", "shared", "author_id", "submitters", "fields", "preferences", "version", "archived_at", "created_at", "updated_at" FROM `templates`;--> statement-breakpoint
DROP TABLE `templates`;--> statement-breakpoint
ALTER TABLE `__new_templates` RENAME TO `templates`;--> statement-breakpoint
CREATE UNIQUE INDEX `templates_public_id` ON `templates` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `templates_slug` ON `templates` (`slug`);--> statement-breakpoint
CREATE INDEX `templates_account` ON `templates` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `templates_account_external_id` ON `templates` (`account_id`,`external_id`);--> statement-breakpoint
CREATE TABLE `__new_webhook_deliveries` (
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
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_webhook_deliveries`("id", "account_id", "webhook_id", "event_id", "event", "delivery_uuid", "attempt", "max_attempts", "status", "url", "request_body", "request_headers", "http_status", "response_body", "response_time_ms", "error_message", "next_attempt_at", "lease_until", "attempted_at", "delivered_at", "test", "redelivery_of", "created_at") SELECT "id", "account_id", "webhook_id", "event_id", "event", "delivery_uuid", "attempt", "max_attempts", "status", "url", "request_body", "request_headers", "http_status", "response_body", "response_time_ms", "error_message", "next_attempt_at", "lease_until", "attempted_at", "delivered_at", "test", "redelivery_of", "created_at" FROM `webhook_deliveries`;--> statement-breakpoint
DROP TABLE `webhook_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_webhook_deliveries` RENAME TO `webhook_deliveries`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_fan_out` ON `webhook_deliveries` (`event_id`,`webhook_id`,`attempt`) WHERE "webhook_deliveries"."redelivery_of" IS NULL AND "webhook_deliveries"."test" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_attempt` ON `webhook_deliveries` (`delivery_uuid`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created` ON `webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `__new_webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`deleted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_webhooks`("id", "account_id", "url", "events", "secret", "enabled", "deleted_at", "created_at", "updated_at") SELECT "id", "account_id", "url", "events", "secret", "enabled", "deleted_at", "created_at", "updated_at" FROM `webhooks`;--> statement-breakpoint
DROP TABLE `webhooks`;--> statement-breakpoint
ALTER TABLE `__new_webhooks` RENAME TO `webhooks`;--> statement-breakpoint
CREATE INDEX `webhooks_account` ON `webhooks` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `__new_submission_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer,
	`action` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_submission_events`("id", "account_id", "submission_id", "submitter_id", "action", "ip", "user_agent", "data", "created_at") SELECT "id", "account_id", "submission_id", "submitter_id", "action", "ip", "user_agent", "data", "created_at" FROM `submission_events`;--> statement-breakpoint
DROP TABLE `submission_events`;--> statement-breakpoint
ALTER TABLE `__new_submission_events` RENAME TO `submission_events`;--> statement-breakpoint
CREATE INDEX `submission_events_submission` ON `submission_events` (`submission_id`,`id`);--> statement-breakpoint
CREATE TABLE `__new_submissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`template_id` integer NOT NULL,
	`slug` text NOT NULL,
	`status` text NOT NULL,
	`submitters_order` text DEFAULT 'sequential' NOT NULL,
	`send_email` integer DEFAULT true NOT NULL,
	`auto_sign` integer DEFAULT false NOT NULL,
	`source` text DEFAULT 'api' NOT NULL,
	`link_base` text NOT NULL,
	`template_version` integer NOT NULL,
	`document_ids` text NOT NULL,
	`preferences` text NOT NULL,
	`metadata` text NOT NULL,
	`created_by_id` integer,
	`expire_at` text,
	`sent_at` text,
	`completed_at` text,
	`expired_at` text,
	`archived_at` text,
	`archived_from` text,
	`sealed_at` text,
	`seal_sweeps` integer DEFAULT 0 NOT NULL,
	`seal_swept_at` text,
	`seal_failed_at` text,
	`seal_failure` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_submissions`("id", "account_id", "template_id", "slug", "status", "submitters_order", "send_email", "auto_sign", "source", "link_base", "template_version", "document_ids", "preferences", "metadata", "created_by_id", "expire_at", "sent_at", "completed_at", "expired_at", "archived_at", "archived_from", "sealed_at", "seal_sweeps", "seal_swept_at", "seal_failed_at", "seal_failure", "created_at", "updated_at") SELECT "id", "account_id", "template_id", "slug", "status", "submitters_order", "send_email", "auto_sign", "source", "link_base", "template_version", "document_ids", "preferences", "metadata", "created_by_id", "expire_at", "sent_at", "completed_at", "expired_at", "archived_at", "archived_from", "sealed_at", "seal_sweeps", "seal_swept_at", "seal_failed_at", "seal_failure", "created_at", "updated_at" FROM `submissions`;--> statement-breakpoint
DROP TABLE `submissions`;--> statement-breakpoint
ALTER TABLE `__new_submissions` RENAME TO `submissions`;--> statement-breakpoint
CREATE UNIQUE INDEX `submissions_slug` ON `submissions` (`slug`);--> statement-breakpoint
CREATE INDEX `submissions_account` ON `submissions` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `submissions_account_template` ON `submissions` (`account_id`,`template_id`,`id`);--> statement-breakpoint
CREATE INDEX `submissions_account_created` ON `submissions` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_expiry` ON `submissions` (`expire_at`) WHERE "submissions"."status" = 'pending' AND "submissions"."expire_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `submissions_pending` ON `submissions` (`id`) WHERE "submissions"."status" = 'pending';--> statement-breakpoint
CREATE TABLE `__new_submitters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`slug` text NOT NULL,
	`role_uuid` text NOT NULL,
	`role` text NOT NULL,
	`position` integer NOT NULL,
	`email` text,
	`name` text,
	`name_from_signer` integer DEFAULT false NOT NULL,
	`phone` text,
	`external_id` text,
	`status` text DEFAULT 'waiting' NOT NULL,
	`values` text NOT NULL,
	`prefilled` text DEFAULT '[]' NOT NULL,
	`metadata` text NOT NULL,
	`send_email` integer DEFAULT true NOT NULL,
	`send_sms` integer DEFAULT false NOT NULL,
	`sent_at` text,
	`opened_at` text,
	`started_at` text,
	`completed_at` text,
	`declined_at` text,
	`decline_reason` text,
	`expired_at` text,
	`reminded_at` text,
	`completed_ip` text,
	`completed_user_agent` text,
	`verification_method` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_submitters`("id", "account_id", "submission_id", "uuid", "slug", "role_uuid", "role", "position", "email", "name", "name_from_signer", "phone", "external_id", "status", "values", "prefilled", "metadata", "send_email", "send_sms", "sent_at", "opened_at", "started_at", "completed_at", "declined_at", "decline_reason", "expired_at", "reminded_at", "completed_ip", "completed_user_agent", "verification_method", "created_at", "updated_at") SELECT "id", "account_id", "submission_id", "uuid", "slug", "role_uuid", "role", "position", "email", "name", "name_from_signer", "phone", "external_id", "status", "values", "prefilled", "metadata", "send_email", "send_sms", "sent_at", "opened_at", "started_at", "completed_at", "declined_at", "decline_reason", "expired_at", "reminded_at", "completed_ip", "completed_user_agent", "verification_method", "created_at", "updated_at" FROM `submitters`;--> statement-breakpoint
DROP TABLE `submitters`;--> statement-breakpoint
ALTER TABLE `__new_submitters` RENAME TO `submitters`;--> statement-breakpoint
CREATE UNIQUE INDEX `submitters_slug` ON `submitters` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `submitters_uuid` ON `submitters` (`uuid`);--> statement-breakpoint
CREATE INDEX `submitters_submission` ON `submitters` (`submission_id`,`position`);--> statement-breakpoint
CREATE INDEX `submitters_account` ON `submitters` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `submitters_account_external_id` ON `submitters` (`account_id`,`external_id`);--> statement-breakpoint
CREATE TABLE `__new_signing_identities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`source` text NOT NULL,
	`certificate` text NOT NULL,
	`chain` text NOT NULL,
	`key_algorithm` text NOT NULL,
	`private_key` text NOT NULL,
	`subject` text NOT NULL,
	`issuer` text NOT NULL,
	`serial_number` text NOT NULL,
	`not_before` text NOT NULL,
	`not_after` text NOT NULL,
	`sha256_fingerprint` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_signing_identities`("id", "account_id", "source", "certificate", "chain", "key_algorithm", "private_key", "subject", "issuer", "serial_number", "not_before", "not_after", "sha256_fingerprint", "created_at") SELECT "id", "account_id", "source", "certificate", "chain", "key_algorithm", "private_key", "subject", "issuer", "serial_number", "not_before", "not_after", "sha256_fingerprint", "created_at" FROM `signing_identities`;--> statement-breakpoint
DROP TABLE `signing_identities`;--> statement-breakpoint
ALTER TABLE `__new_signing_identities` RENAME TO `signing_identities`;--> statement-breakpoint
CREATE UNIQUE INDEX `signing_identities_account_source` ON `signing_identities` (`account_id`,`source`);--> statement-breakpoint
CREATE TABLE `__new_submission_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`template_document_id` integer NOT NULL,
	`filename` text NOT NULL,
	`r2_key` text NOT NULL,
	`sha256` text NOT NULL,
	`original_sha256` text NOT NULL,
	`byte_size` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`template_document_id`) REFERENCES `template_documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_submission_documents`("id", "account_id", "submission_id", "template_document_id", "filename", "r2_key", "sha256", "original_sha256", "byte_size", "created_at") SELECT "id", "account_id", "submission_id", "template_document_id", "filename", "r2_key", "sha256", "original_sha256", "byte_size", "created_at" FROM `submission_documents`;--> statement-breakpoint
DROP TABLE `submission_documents`;--> statement-breakpoint
ALTER TABLE `__new_submission_documents` RENAME TO `submission_documents`;--> statement-breakpoint
CREATE UNIQUE INDEX `submission_documents_document` ON `submission_documents` (`submission_id`,`template_document_id`);--> statement-breakpoint
CREATE INDEX `submission_documents_account_sha256` ON `submission_documents` (`account_id`,`sha256`);--> statement-breakpoint
CREATE INDEX `submission_documents_account_bytes` ON `submission_documents` (`account_id`,`byte_size`);--> statement-breakpoint
CREATE TABLE `__new_signing_verifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submitter_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`verified_at` text,
	`session_hash` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_signing_verifications`("id", "account_id", "submitter_id", "code_hash", "expires_at", "attempts", "verified_at", "session_hash", "created_at") SELECT "id", "account_id", "submitter_id", "code_hash", "expires_at", "attempts", "verified_at", "session_hash", "created_at" FROM `signing_verifications`;--> statement-breakpoint
DROP TABLE `signing_verifications`;--> statement-breakpoint
ALTER TABLE `__new_signing_verifications` RENAME TO `signing_verifications`;--> statement-breakpoint
CREATE INDEX `signing_verifications_submitter` ON `signing_verifications` (`submitter_id`,`id`);--> statement-breakpoint
CREATE TABLE `__new_signing_uploads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`submitter_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`r2_key` text NOT NULL,
	`byte_size` integer NOT NULL,
	`kept_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitter_id`) REFERENCES `submitters`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_signing_uploads`("id", "account_id", "submission_id", "submitter_id", "uuid", "r2_key", "byte_size", "kept_at", "created_at") SELECT "id", "account_id", "submission_id", "submitter_id", "uuid", "r2_key", "byte_size", "kept_at", "created_at" FROM `signing_uploads`;--> statement-breakpoint
DROP TABLE `signing_uploads`;--> statement-breakpoint
ALTER TABLE `__new_signing_uploads` RENAME TO `signing_uploads`;--> statement-breakpoint
CREATE UNIQUE INDEX `signing_uploads_uuid` ON `signing_uploads` (`uuid`);--> statement-breakpoint
CREATE INDEX `signing_uploads_account_bytes` ON `signing_uploads` (`account_id`,`byte_size`);--> statement-breakpoint
CREATE INDEX `signing_uploads_open` ON `signing_uploads` (`created_at`) WHERE "signing_uploads"."kept_at" IS NULL;--> statement-breakpoint
CREATE INDEX `signing_uploads_submission` ON `signing_uploads` (`submission_id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `shard` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `moving_to_shard` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `has_webhooks` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- A single database upgraded in place is both the control database and shard 0.
UPDATE `accounts` SET `has_webhooks` = EXISTS (SELECT 1 FROM `webhooks` WHERE `webhooks`.`account_id` = `accounts`.`id` AND `webhooks`.`enabled` = 1 AND `webhooks`.`deleted_at` IS NULL);