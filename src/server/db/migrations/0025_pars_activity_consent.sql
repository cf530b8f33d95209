-- The PARS activity record: what the administrator says of a credit type's PARS activity
-- besides its ID (the format, direct or joint providership, whether commercial support was
-- received). Empty, or null, until said: a regulator other than PARS never uses them.
ALTER TABLE "credit_type_regulators" ADD COLUMN "activity_format" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "credit_type_regulators" ADD COLUMN "providership" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "credit_type_regulators" ADD COLUMN "commercial_support" boolean;
--> statement-breakpoint
ALTER TABLE "credit_type_regulators" ADD CONSTRAINT "credit_type_regulators_providership_check" CHECK ("credit_type_regulators"."providership" in ('', 'direct', 'joint'));
--> statement-breakpoint
-- What a report file holds: learners' completions (every file before this one), or the PARS
-- activity record.
ALTER TABLE "report_files" ADD COLUMN "kind" text DEFAULT 'learners' NOT NULL;
--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_kind_check" CHECK ("report_files"."kind" in ('learners', 'activities'));
