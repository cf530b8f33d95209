CREATE TABLE "credit_bodies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"provider_number" text DEFAULT '' NOT NULL,
	"minutes_per_hour" integer DEFAULT 60 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_bodies_hour_check" CHECK ("credit_bodies"."minutes_per_hour" in (50, 60))
);
--> statement-breakpoint
CREATE TABLE "credit_catalogue" (
	"id" text PRIMARY KEY NOT NULL,
	"body_id" text,
	"name" text NOT NULL,
	"singular_name" text NOT NULL,
	"accreditation_statement" text DEFAULT '' NOT NULL,
	"designation_statement" text DEFAULT '' NOT NULL,
	"profession" text DEFAULT '' NOT NULL,
	"regulators" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fields_of_study_required" boolean DEFAULT false NOT NULL,
	"licence_required" boolean DEFAULT false NOT NULL,
	"needs_review" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The catalogue begins with the bodies the courses named, one per name, keeping the first
-- provider number given; NASBA's CPE credit is a 50-minute hour.
INSERT INTO "credit_bodies" ("id", "name", "provider_number", "minutes_per_hour")
SELECT replace(gen_random_uuid()::text, '-', ''), min(b."name"), max(b."provider_number"),
  CASE WHEN lower(min(b."name")) LIKE '%nasba%' THEN 50 ELSE 60 END
FROM "course_credit_bodies" b
GROUP BY lower(b."name");
--> statement-breakpoint
-- One catalogue type per body and name the courses offered: types whose body and name agree
-- are merged. Each waits for the administrator to confirm it or merge it into another.
INSERT INTO "credit_catalogue" ("id", "body_id", "name", "singular_name", "accreditation_statement",
  "designation_statement", "profession", "licence_required", "needs_review")
SELECT replace(gen_random_uuid()::text, '-', ''), g."body_id", g."name",
  CASE
    WHEN g."name" ~ '^(.*[[:alpha:]][[:alpha:]])s((\s*\([^()]*\))?[^[:alnum:]]*)$'
      AND g."name" !~ 'ss((\s*\([^()]*\))?[^[:alnum:]]*)$'
    THEN regexp_replace(g."name", '^(.*[[:alpha:]][[:alpha:]])s((\s*\([^()]*\))?[^[:alnum:]]*)$', '\1\2')
    ELSE g."name"
  END,
  g."accreditation_statement", g."designation_statement",
  CASE
    WHEN g."body" ~* '(ancc|nurs)' THEN 'Nursing'
    WHEN g."body" ~* '(nasba|cpa|account)' THEN 'Accounting'
    WHEN g."body" ~* '(accme|ama\M|medic)' THEN 'Medicine'
    WHEN g."body" ~* '(acpe|pharm)' THEN 'Pharmacy'
    ELSE ''
  END,
  g."licence_required", true
FROM (
  SELECT nb."id" AS "body_id", coalesce(min(b."name"), '') AS "body", min(t."name") AS "name",
    (array_agg(t."accreditation_statement" ORDER BY t."id"))[1] AS "accreditation_statement",
    (array_agg(t."designation_statement" ORDER BY t."id"))[1] AS "designation_statement",
    bool_or(t."licence_required") AS "licence_required"
  FROM "course_credit_types" t
  LEFT JOIN "course_credit_bodies" b ON b."id" = t."body_id"
  LEFT JOIN "credit_bodies" nb ON lower(nb."name") = lower(b."name")
  GROUP BY nb."id", lower(t."name")
) g;
--> statement-breakpoint
UPDATE "credit_catalogue" c SET "regulators" = r."list"
FROM (
  SELECT k."id", jsonb_agg(DISTINCT tr."regulator") AS "list"
  FROM "credit_type_regulators" tr
  JOIN "course_credit_types" t ON t."id" = tr."credit_type_id"
  LEFT JOIN "course_credit_bodies" b ON b."id" = t."body_id"
  JOIN "credit_catalogue" k ON lower(k."name") = lower(t."name")
    AND coalesce(k."body_id", '') = coalesce((SELECT nb."id" FROM "credit_bodies" nb WHERE lower(nb."name") = lower(b."name")), '')
  GROUP BY k."id"
) r
WHERE c."id" = r."id";
--> statement-breakpoint
ALTER TABLE "course_credit_types" ADD COLUMN "catalogue_type_id" text;--> statement-breakpoint
UPDATE "course_credit_types" t SET "catalogue_type_id" = k."id"
FROM "credit_catalogue" k
WHERE lower(k."name") = lower(t."name")
  AND coalesce(k."body_id", '') = coalesce((
    SELECT nb."id" FROM "course_credit_bodies" b JOIN "credit_bodies" nb ON lower(nb."name") = lower(b."name")
    WHERE b."id" = t."body_id"), '');
--> statement-breakpoint
ALTER TABLE "course_credit_types" ALTER COLUMN "catalogue_type_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attestation_credits" ADD COLUMN "catalogue_type_id" text;--> statement-breakpoint
ALTER TABLE "attestation_credits" ADD COLUMN "singular_name" text;--> statement-breakpoint
-- A claim's catalogue type is a link, like its course type: set here, moved when the
-- administrator merges two catalogue types, cleared if its type is removed. Every word and
-- amount of the claim stays as claimed.
CREATE OR REPLACE FUNCTION attestation_credits_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		IF EXISTS (SELECT 1 FROM "attestations" WHERE "id" = OLD."attestation_id") THEN
			RAISE EXCEPTION 'a credit record does not change' USING ERRCODE = 'insufficient_privilege';
		END IF;
		RETURN OLD;
	END IF;
	IF (to_jsonb(NEW) - 'credit_type_id' - 'catalogue_type_id') IS DISTINCT FROM (to_jsonb(OLD) - 'credit_type_id' - 'catalogue_type_id')
		OR (NEW."credit_type_id" IS NOT NULL AND NEW."credit_type_id" IS DISTINCT FROM OLD."credit_type_id") THEN
		RAISE EXCEPTION 'a credit record does not change' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Claims already made keep every word they were made with; they only learn their catalogue
-- type, by their course type or, where that type is gone, by the body and name they name.
UPDATE "attestation_credits" a SET "catalogue_type_id" = t."catalogue_type_id"
FROM "course_credit_types" t WHERE t."id" = a."credit_type_id";
--> statement-breakpoint
UPDATE "attestation_credits" a SET "catalogue_type_id" = k."id"
FROM "credit_catalogue" k LEFT JOIN "credit_bodies" nb ON nb."id" = k."body_id"
WHERE a."catalogue_type_id" IS NULL AND lower(k."name") = lower(a."name")
  AND lower(coalesce(nb."name", '')) = lower(coalesce(a."accrediting_body", ''));
--> statement-breakpoint
ALTER TABLE "course_credit_types" DROP CONSTRAINT "course_credit_types_name_check";--> statement-breakpoint
ALTER TABLE "course_credit_types" DROP CONSTRAINT "course_credit_types_body_id_course_credit_bodies_id_fk";
--> statement-breakpoint
DROP INDEX "course_credit_types_body_idx";--> statement-breakpoint
ALTER TABLE "credit_catalogue" ADD CONSTRAINT "credit_catalogue_body_id_credit_bodies_id_fk" FOREIGN KEY ("body_id") REFERENCES "public"."credit_bodies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_bodies_name_idx" ON "credit_bodies" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "credit_catalogue_name_idx" ON "credit_catalogue" USING btree (coalesce("body_id", ''),lower("name"));--> statement-breakpoint
CREATE INDEX "credit_catalogue_body_idx" ON "credit_catalogue" USING btree ("body_id");--> statement-breakpoint
ALTER TABLE "course_credit_types" ADD CONSTRAINT "course_credit_types_catalogue_type_id_credit_catalogue_id_fk" FOREIGN KEY ("catalogue_type_id") REFERENCES "public"."credit_catalogue"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attestation_credits" ADD CONSTRAINT "attestation_credits_catalogue_type_id_credit_catalogue_id_fk" FOREIGN KEY ("catalogue_type_id") REFERENCES "public"."credit_catalogue"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "course_credit_types_catalogue_idx" ON "course_credit_types" USING btree ("course_id","catalogue_type_id");--> statement-breakpoint
ALTER TABLE "course_credit_types" DROP COLUMN "name";--> statement-breakpoint
ALTER TABLE "course_credit_types" DROP COLUMN "body_id";--> statement-breakpoint
ALTER TABLE "course_credit_types" DROP COLUMN "accreditation_statement";--> statement-breakpoint
ALTER TABLE "course_credit_types" DROP COLUMN "licence_required";--> statement-breakpoint
DROP TABLE "course_credit_bodies" CASCADE;
