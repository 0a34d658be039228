CREATE TABLE `company_proof_rules` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`requirements` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `package_door` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`requirements` text,
	`code` text,
	`code_salt` text,
	`code_hash` text,
	`code_iterations` integer,
	`choice` text,
	`choice_at` integer,
	`choice_late` integer DEFAULT false NOT NULL,
	`checked` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
