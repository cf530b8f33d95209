ALTER TABLE "watch_clocks" DROP CONSTRAINT "watch_clocks_enrollment_fk";
--> statement-breakpoint
ALTER TABLE "watch_clocks" DROP CONSTRAINT "watch_clocks_user_id_course_id_pk";--> statement-breakpoint
-- A learner's clocks of several courses become their one clock: time spent in any course
-- stays spent (never past the latest heartbeat), and the latest heartbeat of any course counts.
UPDATE "watch_clocks" w SET "credit_clock_at" = m."credit_clock_at", "last_beat_at" = m."last_beat_at"
	FROM (
		SELECT "user_id", least(max("credit_clock_at"), max("last_beat_at")) AS "credit_clock_at",
			max("last_beat_at") AS "last_beat_at"
		FROM "watch_clocks" GROUP BY "user_id"
	) m
	WHERE w."user_id" = m."user_id";--> statement-breakpoint
DELETE FROM "watch_clocks" w
	WHERE EXISTS (
		SELECT 1 FROM "watch_clocks" o WHERE o."user_id" = w."user_id" AND o."course_id" < w."course_id"
	);--> statement-breakpoint
ALTER TABLE "watch_clocks" ADD PRIMARY KEY ("user_id");--> statement-breakpoint
ALTER TABLE "watch_clocks" ADD CONSTRAINT "watch_clocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_clocks" DROP COLUMN "course_id";
