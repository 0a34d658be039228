DROP INDEX `pincode_code_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `pincode_code_suburb_uq` ON `pincode` (`code`,`suburb_id`);--> statement-breakpoint
CREATE INDEX `suburb_state_idx` ON `suburb` (`state_id`);--> statement-breakpoint
CREATE INDEX `suburb_city_idx` ON `suburb` (`city_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_zone` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`code` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`warehouse_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_zone`("id", "name", "code", "description", "warehouse_id", "is_active", "deleted_at", "created_at", "updated_at") SELECT "id", "name", "code", "description", "warehouse_id", "is_active", "deleted_at", "created_at", "updated_at" FROM `zone`;--> statement-breakpoint
DROP TABLE `zone`;--> statement-breakpoint
ALTER TABLE `__new_zone` RENAME TO `zone`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `zone_warehouse_idx` ON `zone` (`warehouse_id`);