ALTER TABLE "courses" ADD COLUMN "completion_policy" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "min_watch_percent" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "min_seat_seconds" integer;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "credit_hours" numeric(6, 2);--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "credit_type" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "accrediting_body" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "provider_number" text;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_completion_policy_check" CHECK ("courses"."completion_policy" in ('manual', 'verified'));--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_min_watch_percent_check" CHECK ("courses"."min_watch_percent" between 1 and 100);--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_min_seat_seconds_check" CHECK ("courses"."min_seat_seconds" >= 0);--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_credit_hours_check" CHECK ("courses"."credit_hours" > 0 and "courses"."credit_hours" <= 1000);--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_credit_text_check" CHECK (char_length("courses"."credit_type") <= 100 and char_length("courses"."accrediting_body") <= 200 and char_length("courses"."provider_number") <= 100);
