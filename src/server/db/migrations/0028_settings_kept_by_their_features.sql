CREATE TABLE "course_attestations" (
	"course_id" text PRIMARY KEY NOT NULL,
	"attestation_required" boolean DEFAULT false NOT NULL,
	"attestation_text" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course_credit_settings" (
	"course_id" text PRIMARY KEY NOT NULL,
	"sponsor_name" text DEFAULT '' NOT NULL,
	"sponsor_address" text DEFAULT '' NOT NULL,
	"delivery_method" text DEFAULT '' NOT NULL,
	"fields_of_study" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"official_name" text DEFAULT '' NOT NULL,
	"official_title" text DEFAULT '' NOT NULL,
	"signature_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course_evaluations" (
	"course_id" text PRIMARY KEY NOT NULL,
	"evaluation_required" boolean DEFAULT false NOT NULL,
	"evaluation_items" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_activity" DROP CONSTRAINT "course_activity_signature_id_signatures_id_fk";
--> statement-breakpoint
ALTER TABLE "course_attestations" ADD CONSTRAINT "course_attestations_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_credit_settings" ADD CONSTRAINT "course_credit_settings_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_credit_settings" ADD CONSTRAINT "course_credit_settings_signature_id_signatures_id_fk" FOREIGN KEY ("signature_id") REFERENCES "public"."signatures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_evaluations" ADD CONSTRAINT "course_evaluations_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each credit feature keeps its own settings of a course: what the activity row held for
-- the evaluation, the attestation and the credit-ready certificate moves to their tables.
INSERT INTO "course_evaluations" ("course_id", "evaluation_required", "evaluation_items", "updated_at")
	SELECT "course_id", "evaluation_required", "evaluation_items", "updated_at" FROM "course_activity";
--> statement-breakpoint
INSERT INTO "course_attestations" ("course_id", "attestation_required", "attestation_text", "updated_at")
	SELECT "course_id", "attestation_required", "attestation_text", "updated_at" FROM "course_activity";
--> statement-breakpoint
INSERT INTO "course_credit_settings" ("course_id", "sponsor_name", "sponsor_address", "delivery_method",
		"fields_of_study", "official_name", "official_title", "signature_id", "updated_at")
	SELECT "course_id", "sponsor_name", "sponsor_address", "delivery_method", "fields_of_study",
		"official_name", "official_title", "signature_id", "updated_at" FROM "course_activity";
--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "evaluation_required";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "attestation_required";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "attestation_text";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "evaluation_items";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "sponsor_name";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "sponsor_address";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "delivery_method";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "fields_of_study";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "official_name";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "official_title";--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "signature_id";