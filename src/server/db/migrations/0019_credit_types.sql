-- A course offers one or more credit types (AMA PRA Category 1 Credit™, ANCC contact hours,
-- NASBA CPE credits), each with its own amount, body and statements. The body and its
-- provider number are entered once per course and shared by the types it accredits.
CREATE TABLE "course_credit_bodies" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"name" text NOT NULL,
	"provider_number" text DEFAULT '' NOT NULL,
	CONSTRAINT "course_credit_bodies_text_check" CHECK (char_length("course_credit_bodies"."name") between 1 and 200 and char_length("course_credit_bodies"."provider_number") <= 100)
);
--> statement-breakpoint
ALTER TABLE "course_credit_bodies" ADD CONSTRAINT "course_credit_bodies_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "course_credit_bodies_name_idx" ON "course_credit_bodies" USING btree ("course_id", lower("name"));
--> statement-breakpoint
CREATE TABLE "course_credit_types" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"amount" numeric(6, 2) NOT NULL,
	"body_id" text,
	"accreditation_statement" text DEFAULT '' NOT NULL,
	"designation_statement" text DEFAULT '' NOT NULL,
	"claim_step" numeric(6, 2),
	"licence_required" boolean DEFAULT false NOT NULL,
	CONSTRAINT "course_credit_types_amount_check" CHECK ("course_credit_types"."amount" > 0 and "course_credit_types"."amount" <= 1000),
	CONSTRAINT "course_credit_types_step_check" CHECK ("course_credit_types"."claim_step" > 0),
	CONSTRAINT "course_credit_types_name_check" CHECK (char_length("course_credit_types"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "course_credit_types" ADD CONSTRAINT "course_credit_types_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_credit_types" ADD CONSTRAINT "course_credit_types_body_id_course_credit_bodies_id_fk" FOREIGN KEY ("body_id") REFERENCES "public"."course_credit_bodies"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "course_credit_types_course_idx" ON "course_credit_types" USING btree ("course_id", "position");
--> statement-breakpoint
CREATE INDEX "course_credit_types_body_idx" ON "course_credit_types" USING btree ("body_id");
--> statement-breakpoint
-- The credit types travel with the course in every instance's cache: a change is announced
-- as a change of the course.
CREATE TRIGGER course_credit_types_notify_change AFTER INSERT OR UPDATE OR DELETE ON "course_credit_types"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER course_credit_types_notify_truncate AFTER TRUNCATE ON "course_credit_types"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER course_credit_bodies_notify_change AFTER INSERT OR UPDATE OR DELETE ON "course_credit_bodies"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER course_credit_bodies_notify_truncate AFTER TRUNCATE ON "course_credit_bodies"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
-- Each course's single credit type moves into one row, with nothing lost. Its name is the
-- unit its certificates printed: a type already naming its unit ("Contact hours") is kept
-- as written, any other ("CPE") gets the "credit hours" it was printed with. The registry
-- number of the credit settings named the same sponsor number as the provider number: it
-- fills the provider number when that was empty.
INSERT INTO "course_credit_bodies" ("id", "course_id", "name", "provider_number")
SELECT replace(gen_random_uuid()::text, '-', ''), c."id",
	coalesce(nullif(btrim(c."accrediting_body"), ''), 'Accrediting body'),
	coalesce(nullif(btrim(c."provider_number"), ''), nullif(btrim(a."registry_number"), ''), '')
FROM "courses" c LEFT JOIN "course_activity" a ON a."course_id" = c."id"
WHERE c."credit_hours" IS NOT NULL AND (
	nullif(btrim(c."accrediting_body"), '') IS NOT NULL
	OR nullif(btrim(c."provider_number"), '') IS NOT NULL
	OR nullif(btrim(a."registry_number"), '') IS NOT NULL);
--> statement-breakpoint
INSERT INTO "course_credit_types" ("id", "course_id", "position", "name", "amount", "body_id",
	"accreditation_statement", "designation_statement", "claim_step", "licence_required")
SELECT replace(gen_random_uuid()::text, '-', ''), c."id", 0,
	CASE
		WHEN nullif(btrim(c."credit_type"), '') IS NULL THEN 'credit hours'
		WHEN btrim(c."credit_type") ~* '(hours?|credits?|units?|points?|CEUs?|™)$' THEN btrim(c."credit_type")
		ELSE btrim(c."credit_type") || ' credit hours'
	END,
	c."credit_hours", b."id", coalesce(a."accreditation_statement", ''), '',
	a."partial_credit_step", coalesce(a."licence_required", false)
FROM "courses" c
LEFT JOIN "course_activity" a ON a."course_id" = c."id"
LEFT JOIN "course_credit_bodies" b ON b."course_id" = c."id"
WHERE c."credit_hours" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "courses" DROP CONSTRAINT "courses_credit_hours_check";
--> statement-breakpoint
ALTER TABLE "courses" DROP CONSTRAINT "courses_credit_text_check";
--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "credit_hours";
--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "credit_type";
--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "accrediting_body";
--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "provider_number";
--> statement-breakpoint
ALTER TABLE "course_activity" DROP CONSTRAINT "course_activity_step_check";
--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "accreditation_statement";
--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "partial_credit_step";
--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "registry_number";
--> statement-breakpoint
ALTER TABLE "course_activity" DROP COLUMN "licence_required";
--> statement-breakpoint
-- What a learner claimed of each type at attestation, as claimed: a credit record, kept with
-- its attestation. The attestations that claimed the single type of their course move here.
CREATE TABLE "attestation_credits" (
	"attestation_id" text NOT NULL,
	"position" integer NOT NULL,
	"credit_type_id" text,
	"name" text NOT NULL,
	"amount" numeric(6, 2) NOT NULL,
	"max_amount" numeric(6, 2) NOT NULL,
	"accrediting_body" text,
	"provider_number" text,
	CONSTRAINT "attestation_credits_attestation_id_position_pk" PRIMARY KEY("attestation_id","position")
);
--> statement-breakpoint
ALTER TABLE "attestation_credits" ADD CONSTRAINT "attestation_credits_attestation_id_attestations_id_fk" FOREIGN KEY ("attestation_id") REFERENCES "public"."attestations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "attestation_credits" ADD CONSTRAINT "attestation_credits_credit_type_id_course_credit_types_id_fk" FOREIGN KEY ("credit_type_id") REFERENCES "public"."course_credit_types"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "attestation_credits_type_idx" ON "attestation_credits" USING btree ("credit_type_id");
--> statement-breakpoint
INSERT INTO "attestation_credits" ("attestation_id", "position", "credit_type_id", "name",
	"amount", "max_amount", "accrediting_body", "provider_number")
SELECT a."id", 0, t."id", coalesce(t."name", 'credit hours'), a."credits_claimed",
	coalesce(a."designated_credits", a."credits_claimed"), b."name", nullif(b."provider_number", '')
FROM "attestations" a
LEFT JOIN "course_credit_types" t ON t."course_id" = a."course_id"
LEFT JOIN "course_credit_bodies" b ON b."id" = t."body_id"
WHERE a."credits_claimed" IS NOT NULL;
--> statement-breakpoint
-- A claim changes only by losing the link to a type since deleted, and goes only with its
-- attestation (whose own trigger keeps it for the course's retention period).
CREATE FUNCTION attestation_credits_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		IF EXISTS (SELECT 1 FROM "attestations" WHERE "id" = OLD."attestation_id") THEN
			RAISE EXCEPTION 'a credit record does not change' USING ERRCODE = 'insufficient_privilege';
		END IF;
		RETURN OLD;
	END IF;
	IF (to_jsonb(NEW) - 'credit_type_id') IS DISTINCT FROM (to_jsonb(OLD) - 'credit_type_id')
		OR (NEW."credit_type_id" IS NOT NULL AND NEW."credit_type_id" IS DISTINCT FROM OLD."credit_type_id") THEN
		RAISE EXCEPTION 'a credit record does not change' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER attestation_credits_kept BEFORE UPDATE OR DELETE ON "attestation_credits"
	FOR EACH ROW EXECUTE FUNCTION attestation_credits_kept();
--> statement-breakpoint
-- Each certificate lists the credit claimed, one entry per type. Certificates issued before
-- list the one type they printed, with the claim their credit snapshot recorded.
ALTER TABLE "certificates" ADD COLUMN "credits" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
UPDATE "certificates" SET "credits" = jsonb_build_array(jsonb_build_object(
	'creditTypeId', NULL,
	'name', CASE
		WHEN nullif(btrim("credit_type"), '') IS NULL THEN 'credit hours'
		WHEN btrim("credit_type") ~* '(hours?|credits?|units?|points?|CEUs?|™)$' THEN btrim("credit_type")
		ELSE btrim("credit_type") || ' credit hours'
	END,
	'amount', coalesce(("credit" ->> 'creditsClaimed')::numeric, "credit_hours")::float8,
	'accreditingBody', nullif(btrim("accrediting_body"), ''),
	'providerNumber', nullif(btrim("provider_number"), ''),
	'accreditationStatement', coalesce("credit" ->> 'accreditationStatement', ''),
	'designationStatement', ''))
WHERE "credit_hours" IS NOT NULL;
--> statement-breakpoint
-- The snapshot rule of certificates_immutable (migration 0009), for the column added here.
CREATE FUNCTION certificates_credits_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."credits" IS DISTINCT FROM OLD."credits" THEN
		RAISE EXCEPTION 'an issued certificate does not change' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER certificates_credits_immutable BEFORE UPDATE ON "certificates"
	FOR EACH ROW EXECUTE FUNCTION certificates_credits_immutable();
