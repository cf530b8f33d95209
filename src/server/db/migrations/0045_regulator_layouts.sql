CREATE TABLE "cpe_monitor_submissions" (
	"attestation_id" text NOT NULL,
	"position" integer NOT NULL,
	"course_id" text,
	"fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"submitted_at" timestamp with time zone NOT NULL,
	"submitted_by" text,
	"answered_at" timestamp with time zone,
	CONSTRAINT "cpe_monitor_submissions_attestation_id_position_pk" PRIMARY KEY("attestation_id","position"),
	CONSTRAINT "cpe_monitor_submissions_status_check" CHECK ("cpe_monitor_submissions"."status" in ('accepted', 'refused', 'waiting'))
);
--> statement-breakpoint
ALTER TABLE "report_file_claims" ADD COLUMN "action" text DEFAULT 'add' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_file_claims" DROP CONSTRAINT "report_file_claims_file_id_attestation_id_position_pk";--> statement-breakpoint
ALTER TABLE "report_file_claims" ADD CONSTRAINT "report_file_claims_file_id_attestation_id_position_action_pk" PRIMARY KEY("file_id","attestation_id","position","action");--> statement-breakpoint
ALTER TABLE "credit_type_regulators" ADD COLUMN "details" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "regulator_settings" ADD COLUMN "connection" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "regulator_settings" ADD COLUMN "sealed_secret" text;--> statement-breakpoint
ALTER TABLE "report_file_claims" ADD COLUMN "row" jsonb;--> statement-breakpoint
CREATE INDEX "cpe_monitor_submissions_due_idx" ON "cpe_monitor_submissions" USING btree ("status","next_attempt_at");--> statement-breakpoint
ALTER TABLE "report_file_claims" ADD CONSTRAINT "report_file_claims_action_check" CHECK ("report_file_claims"."action" in ('add', 'delete'));