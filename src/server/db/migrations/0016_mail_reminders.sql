-- Certificate mail and learner reminders.
-- A certificate's email waits here from the transaction that issues the certificate until it
-- is delivered: a process stopping right after the commit loses nothing. No foreign key:
-- certificates are never deleted (their trigger refuses it), and the queue stays out of
-- the certificates table's way.
CREATE TABLE "certificate_mails" (
	"certificate_id" text PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "certificate_mails_unsent_idx" ON "certificate_mails" USING btree ("created_at") WHERE "certificate_mails"."sent_at" is null;--> statement-breakpoint
-- Announced at commit, on every instance: the sender delivers the mail right after the
-- completing transaction commits, never inside it.
CREATE FUNCTION credo_notify_certificate_mails() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('credo_changes', 'certificate_mails:*');
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER certificate_mails_notify_insert AFTER INSERT ON "certificate_mails"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_certificate_mails();--> statement-breakpoint
-- The portal's one row of reminder settings: inactivity reminders off until an admin sets the days.
CREATE TABLE "reminder_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"inactivity_days" integer,
	"expiry_reminders" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_settings_single_check" CHECK ("reminder_settings"."id" = 1),
	CONSTRAINT "reminder_settings_days_check" CHECK ("reminder_settings"."inactivity_days" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "reminder_subscriptions" (
	"user_id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"opted_out_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_subscriptions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "reminder_subscriptions" ADD CONSTRAINT "reminder_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- One row per reminder, written before it is sent: the unique key is what keeps a reminder
-- from going out twice, whichever instance sweeps.
CREATE TABLE "reminder_sends" (
	"enrollment_id" text NOT NULL,
	"kind" text NOT NULL,
	"period_at" timestamp with time zone NOT NULL,
	"user_id" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "reminder_sends_period_unique" UNIQUE("enrollment_id","kind","period_at"),
	CONSTRAINT "reminder_sends_kind_check" CHECK ("reminder_sends"."kind" in ('inactive', 'expiry'))
);
--> statement-breakpoint
ALTER TABLE "reminder_sends" ADD CONSTRAINT "reminder_sends_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminder_sends_failed_idx" ON "reminder_sends" USING btree ("claimed_at") WHERE "reminder_sends"."sent_at" is null;
