-- What the AUs of each registration have stored, bounded by learning/cmi5/xapi-storage.ts.
CREATE TABLE "cmi5_registration_usage" (
	"registration" uuid PRIMARY KEY NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cmi5_registration_usage" ADD CONSTRAINT "cmi5_registration_usage_registration_package_attempts_registration_fk" FOREIGN KEY ("registration") REFERENCES "public"."package_attempts"("registration") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- What registrations hold already: their state documents but the LMS's launch data, and their
-- statements (the LMS's own few among them), counted about as xapi-storage.ts counts them.
INSERT INTO "cmi5_registration_usage" ("registration", "bytes")
SELECT "registration", sum("bytes") FROM (
	SELECT "registration",
		128 + octet_length("activity_id") + octet_length("state_id") + octet_length("content") AS "bytes"
	FROM "cmi5_states" WHERE "state_id" <> 'LMS.LaunchData'
	UNION ALL
	SELECT "registration", 128 + octet_length("statement"::text) FROM "cmi5_statements"
) AS "stored" GROUP BY "registration";
