CREATE TABLE `company_service_time` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`service_s` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `depot_position` (
	`warehouse_id` integer PRIMARY KEY NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `dispatch_plan` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`date` text NOT NULL,
	`status` text NOT NULL,
	`request` text NOT NULL,
	`proposal` text,
	`message` text,
	`time_limit_ms` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`committed_at` integer,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `driver_shift` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`date` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	`start_warehouse_id` integer,
	`end_warehouse_id` integer,
	`vehicle_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`start_warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`end_warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`vehicle_id`) REFERENCES `vehicle`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `driver_shift_driver_date_uq` ON `driver_shift` (`driver_id`,`date`);--> statement-breakpoint
CREATE INDEX `driver_shift_date_idx` ON `driver_shift` (`date`);--> statement-breakpoint
CREATE TABLE `package_window` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`window_start` text,
	`window_end` text,
	`service_s` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `stop_eta` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`route_id` integer NOT NULL,
	`eta_at` integer NOT NULL,
	`planned_at` integer NOT NULL,
	`wait_s` integer DEFAULT 0 NOT NULL,
	`late` integer DEFAULT false NOT NULL,
	`computed_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `stop_eta_route_idx` ON `stop_eta` (`route_id`);--> statement-breakpoint
CREATE TABLE `vehicle` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'van' NOT NULL,
	`registration` text DEFAULT '' NOT NULL,
	`capacity_kg` real,
	`capacity_m3` real,
	`capacity_parcels` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
