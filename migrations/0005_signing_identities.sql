CREATE TABLE `signing_identities` (
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
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signing_identities_account_source` ON `signing_identities` (`account_id`,`source`);