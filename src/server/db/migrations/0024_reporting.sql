-- Regulator reporting. A course's credit type names the regulators it reports to (ACCME
-- PARS, CE Broker, NABP CPE Monitor) with each one's identifier of the activity; it goes
-- with its credit type.
CREATE TABLE "credit_type_regulators" (
	"credit_type_id" text NOT NULL,
	"regulator" text NOT NULL,
	"activity_id" text DEFAULT '' NOT NULL,
	"provider_id" text DEFAULT '' NOT NULL,
	CONSTRAINT "credit_type_regulators_credit_type_id_regulator_pk" PRIMARY KEY("credit_type_id","regulator"),
	CONSTRAINT "credit_type_regulators_regulator_check" CHECK ("credit_type_regulators"."regulator" in ('pars', 'ce_broker', 'cpe_monitor'))
);
--> statement-breakpoint
ALTER TABLE "credit_type_regulators" ADD CONSTRAINT "credit_type_regulators_credit_type_id_course_credit_types_id_fk" FOREIGN KEY ("credit_type_id") REFERENCES "public"."course_credit_types"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- What a learner gives the regulators, entered once in the profile.
CREATE TABLE "learner_regulator_ids" (
	"user_id" text PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"birth_month" smallint,
	"birth_day" smallint,
	"npi" text DEFAULT '' NOT NULL,
	"licence_state" text DEFAULT '' NOT NULL,
	"licence_number" text DEFAULT '' NOT NULL,
	"profession" text DEFAULT '' NOT NULL,
	"certifying_board" text DEFAULT '' NOT NULL,
	"board_id" text DEFAULT '' NOT NULL,
	"nabp_epid" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learner_regulator_ids_birth_check" CHECK (("learner_regulator_ids"."birth_month" is null) = ("learner_regulator_ids"."birth_day" is null) and "learner_regulator_ids"."birth_month" between 1 and 12 and "learner_regulator_ids"."birth_day" between 1 and 31)
);
--> statement-breakpoint
ALTER TABLE "learner_regulator_ids" ADD CONSTRAINT "learner_regulator_ids_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A claim of a reported type keeps its regulators and the learner's identifiers as they
-- stood when claimed. attestation_credits_kept (migration 0019) compares whole rows but for
-- the link to the type, so this copy never changes either.
ALTER TABLE "attestation_credits" ADD COLUMN "regulator_ids" jsonb;
--> statement-breakpoint
-- Each report file, byte for byte, with the rows its format refused.
CREATE TABLE "report_files" (
	"id" text PRIMARY KEY NOT NULL,
	"regulator" text NOT NULL,
	"course_id" text,
	"course_title" text NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bytea NOT NULL,
	"row_count" integer NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"submitted_at" timestamp with time zone,
	"submitted_by" text,
	CONSTRAINT "report_files_regulator_check" CHECK ("report_files"."regulator" in ('pars', 'ce_broker', 'cpe_monitor'))
);
--> statement-breakpoint
CREATE INDEX "report_files_regulator_idx" ON "report_files" USING btree ("regulator","created_at");
--> statement-breakpoint
-- The claims each file holds, with the fingerprint of the row written for each.
CREATE TABLE "report_file_claims" (
	"file_id" text NOT NULL,
	"attestation_id" text NOT NULL,
	"position" integer NOT NULL,
	"fingerprint" text NOT NULL,
	CONSTRAINT "report_file_claims_file_id_attestation_id_position_pk" PRIMARY KEY("file_id","attestation_id","position")
);
--> statement-breakpoint
ALTER TABLE "report_file_claims" ADD CONSTRAINT "report_file_claims_file_id_report_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."report_files"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "report_file_claims_claim_idx" ON "report_file_claims" USING btree ("attestation_id","position");
--> statement-breakpoint
-- A generated file is kept exactly: only its submission is ever recorded on it, once.
CREATE FUNCTION report_files_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (to_jsonb(NEW) - 'submitted_at' - 'submitted_by') IS DISTINCT FROM (to_jsonb(OLD) - 'submitted_at' - 'submitted_by')
		OR OLD."submitted_at" IS NOT NULL THEN
		RAISE EXCEPTION 'a report file does not change' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER report_files_kept BEFORE UPDATE ON "report_files"
	FOR EACH ROW EXECUTE FUNCTION report_files_kept();
--> statement-breakpoint
CREATE TABLE "regulator_settings" (
	"regulator" text PRIMARY KEY NOT NULL,
	"deadline_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "regulator_settings_days_check" CHECK ("regulator_settings"."deadline_days" between 1 and 365),
	CONSTRAINT "regulator_settings_regulator_check" CHECK ("regulator_settings"."regulator" in ('pars', 'ce_broker', 'cpe_monitor'))
);
--> statement-breakpoint
-- The weekly digest of overdue claims, one row per week, taken before it is sent.
CREATE TABLE "reporting_digests" (
	"week" date PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
