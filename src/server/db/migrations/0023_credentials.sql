-- Every certificate is also an Open Badges 3.0 credential (docs/credentials.md). The
-- certificate keeps what its course asked and offered at issue (the completion steps and the
-- credit offered of each type), so the credential's achievement says what was certified even
-- after the course changes.
ALTER TABLE "certificates" ADD COLUMN "achievement" jsonb;
--> statement-breakpoint
-- The snapshot rule of certificates_immutable (migration 0009), for the column added here.
CREATE FUNCTION certificates_achievement_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."achievement" IS DISTINCT FROM OLD."achievement" THEN
		RAISE EXCEPTION 'an issued certificate does not change' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER certificates_achievement_immutable BEFORE UPDATE ON "certificates"
	FOR EACH ROW EXECUTE FUNCTION certificates_achievement_immutable();
--> statement-breakpoint
-- The issuer's Ed25519 keys. One signs (retired_at null); retired keys stay published in the
-- DID document so that credentials signed with them still verify.
CREATE TABLE "credential_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"public_key_multibase" text NOT NULL,
	"secret_key_multibase" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
-- Instances starting together each try to add the first key: this lets exactly one in.
CREATE UNIQUE INDEX "credential_keys_one_signing" ON "credential_keys" USING btree ((true)) WHERE "retired_at" IS NULL;
--> statement-breakpoint
-- A certificate's credential: its place in a status list, and the signed JSON as sent.
-- Certificates are never deleted, so certificate_id needs no foreign key (as certificate_mails).
CREATE TABLE "credentials" (
	"certificate_id" text PRIMARY KEY NOT NULL,
	"status_list" integer NOT NULL,
	"status_index" integer NOT NULL,
	"document" text,
	"key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_at" timestamp with time zone,
	CONSTRAINT "credentials_status_unique" UNIQUE("status_list","status_index"),
	CONSTRAINT "credentials_status_index_check" CHECK ("credentials"."status_index" >= 0)
);
--> statement-breakpoint
-- The last signed status-list credential of each list, with the bits it was signed over.
CREATE TABLE "credential_status_lists" (
	"id" integer PRIMARY KEY NOT NULL,
	"encoded_list" text NOT NULL,
	"document" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
