ALTER TABLE `submitters` ADD `send_whatsapp` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `submitters` ADD `require_phone_2fa` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `signing_verifications` ADD `channel` text DEFAULT 'email' NOT NULL;