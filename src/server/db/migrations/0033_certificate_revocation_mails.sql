-- A certificate's mails are of two kinds: its issue, and its revocation. Every mail queued
-- so far announced an issue; one mail of each kind per certificate.
ALTER TABLE "certificate_mails" ADD COLUMN "kind" text DEFAULT 'issued' NOT NULL;--> statement-breakpoint
ALTER TABLE "certificate_mails" ADD CONSTRAINT "certificate_mails_kind_check" CHECK ("certificate_mails"."kind" in ('issued', 'revoked'));--> statement-breakpoint
ALTER TABLE "certificate_mails" DROP CONSTRAINT "certificate_mails_pkey";--> statement-breakpoint
ALTER TABLE "certificate_mails" ADD CONSTRAINT "certificate_mails_pkey" PRIMARY KEY("certificate_id","kind");
