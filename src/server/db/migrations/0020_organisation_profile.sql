-- The organisation running the portal: the issuer named on its certificates, transcripts and
-- emails. One row (id 1); no row means the portal issues as its product name.
CREATE TABLE "organisation_profile" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"logo_id" text,
	"address" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"date_format" text DEFAULT 'month-day-year' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisation_profile_single_check" CHECK ("organisation_profile"."id" = 1),
	CONSTRAINT "organisation_profile_date_format_check" CHECK ("organisation_profile"."date_format" in ('month-day-year', 'day-month-year', 'iso'))
);
--> statement-breakpoint
-- A logo is never deleted while the profile shows it (issued certificates keep its id too).
ALTER TABLE "organisation_profile" ADD CONSTRAINT "organisation_profile_logo_id_objects_id_fk" FOREIGN KEY ("logo_id") REFERENCES "public"."objects"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
-- Cached in each instance's memory (organisation.service.ts): every change is announced.
CREATE TRIGGER organisation_profile_notify_change AFTER INSERT OR UPDATE OR DELETE ON "organisation_profile"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER organisation_profile_notify_truncate AFTER TRUNCATE ON "organisation_profile"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_change();
--> statement-breakpoint
-- Logos are uploads of their own kind: PNG or JPEG, checked by their bytes.
ALTER TABLE "objects" DROP CONSTRAINT "objects_kind_check";
--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_kind_check" CHECK ("objects"."kind" in ('thumbnail', 'video', 'logo'));
--> statement-breakpoint
-- Each certificate keeps the logo it was issued with, as it keeps the issuer's name.
ALTER TABLE "certificates" ADD COLUMN "issuer_logo_id" text;
--> statement-breakpoint
-- The snapshot rule of certificates_immutable (migration 0009), for the column added here.
CREATE FUNCTION certificates_issuer_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.issuer_logo_id IS DISTINCT FROM OLD.issuer_logo_id THEN
		RAISE EXCEPTION 'an issued certificate does not change' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER certificates_issuer_immutable BEFORE UPDATE ON "certificates"
	FOR EACH ROW EXECUTE FUNCTION certificates_issuer_immutable();
