CREATE TABLE "package_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"registration" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"course_id" text NOT NULL,
	"module_id" text NOT NULL,
	"package_id" text NOT NULL,
	"number" integer NOT NULL,
	"completion" text DEFAULT 'unknown' NOT NULL,
	"success" text DEFAULT 'unknown' NOT NULL,
	"score_scaled" double precision,
	"reported_seconds" double precision DEFAULT 0 NOT NULL,
	"seat_seconds" double precision DEFAULT 0 NOT NULL,
	"last_seat_at" timestamp with time zone,
	"satisfied_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "package_attempts_number_check" CHECK ("package_attempts"."number" >= 1),
	CONSTRAINT "package_attempts_completion_check" CHECK ("package_attempts"."completion" in ('unknown', 'incomplete', 'completed')),
	CONSTRAINT "package_attempts_success_check" CHECK ("package_attempts"."success" in ('unknown', 'passed', 'failed')),
	CONSTRAINT "package_attempts_score_check" CHECK ("package_attempts"."score_scaled" is null or "package_attempts"."score_scaled" between -1 and 1),
	CONSTRAINT "package_attempts_seconds_check" CHECK ("package_attempts"."reported_seconds" >= 0 and "package_attempts"."seat_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "package_item_states" (
	"attempt_id" text NOT NULL,
	"item_id" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"completion" text DEFAULT 'unknown' NOT NULL,
	"success" text DEFAULT 'unknown' NOT NULL,
	"score_scaled" double precision,
	"reported_seconds" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "package_item_states_attempt_id_item_id_pk" PRIMARY KEY("attempt_id","item_id"),
	CONSTRAINT "package_item_states_completion_check" CHECK ("package_item_states"."completion" in ('unknown', 'incomplete', 'completed')),
	CONSTRAINT "package_item_states_success_check" CHECK ("package_item_states"."success" in ('unknown', 'passed', 'failed')),
	CONSTRAINT "package_item_states_score_check" CHECK ("package_item_states"."score_scaled" is null or "package_item_states"."score_scaled" between -1 and 1),
	CONSTRAINT "package_item_states_seconds_check" CHECK ("package_item_states"."reported_seconds" >= 0)
);
--> statement-breakpoint
ALTER TABLE "package_attempts" ADD CONSTRAINT "package_attempts_enrollment_fk" FOREIGN KEY ("user_id","course_id") REFERENCES "public"."enrollments"("user_id","course_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_item_states" ADD CONSTRAINT "package_item_states_attempt_id_package_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."package_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "package_attempts_registration_idx" ON "package_attempts" USING btree ("registration");--> statement-breakpoint
CREATE UNIQUE INDEX "package_attempts_number_idx" ON "package_attempts" USING btree ("user_id","course_id","module_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "package_attempts_open_idx" ON "package_attempts" USING btree ("user_id","course_id","module_id") WHERE "package_attempts"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "package_attempts_module_idx" ON "package_attempts" USING btree ("course_id","module_id");