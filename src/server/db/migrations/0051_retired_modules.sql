-- The ids of modules a course lost, never given to a new module of the course (a learner's
-- completion of the old one is kept and would count for the new one).
CREATE TABLE "retired_modules" (
	"course_id" text NOT NULL,
	"id" text NOT NULL,
	CONSTRAINT "retired_modules_course_id_id_pk" PRIMARY KEY("course_id","id")
);
--> statement-breakpoint
ALTER TABLE "retired_modules" ADD CONSTRAINT "retired_modules_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The modules already removed, as the completions learners kept of them show.
INSERT INTO "retired_modules" ("course_id", "id")
SELECT DISTINCT e."course_id", c."module_id"
FROM "module_completions" c
JOIN "enrollments" e ON e."id" = c."enrollment_id"
JOIN "courses" k ON k."id" = e."course_id"
WHERE NOT EXISTS (
	SELECT 1 FROM "modules" m WHERE m."course_id" = e."course_id" AND m."id" = c."module_id"
)
ON CONFLICT DO NOTHING;
