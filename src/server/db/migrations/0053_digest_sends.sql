-- The administrators each week's reporting digest reached, and how often the week was tried:
-- a digest the mail server refused is tried again for those it did not reach.
CREATE TABLE "reporting_digest_sends" (
	"week" date NOT NULL,
	"user_id" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reporting_digest_sends_week_user_id_pk" PRIMARY KEY("week","user_id")
);
--> statement-breakpoint
ALTER TABLE "reporting_digests" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reporting_digest_sends" ADD CONSTRAINT "reporting_digest_sends_week_reporting_digests_week_fk" FOREIGN KEY ("week") REFERENCES "public"."reporting_digests"("week") ON DELETE no action ON UPDATE no action;