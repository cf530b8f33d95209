CREATE TABLE "completion_recomputes" (
	"course_id" text PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requests" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "completion_recomputes" ADD CONSTRAINT "completion_recomputes_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrollments_course_open_idx" ON "enrollments" USING btree ("course_id","id") WHERE not "enrollments"."is_completed";