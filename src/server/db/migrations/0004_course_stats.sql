CREATE TABLE "course_stats" (
	"course_id" text PRIMARY KEY NOT NULL,
	"enrollments" integer DEFAULT 0 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	"progress_sum" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_stats" ADD CONSTRAINT "course_stats_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Keeps course_stats in step with enrollments. Statement-level triggers with transition
-- tables: a bulk insert of 50,000 enrollments costs one grouped upsert, not 50,000.
CREATE FUNCTION course_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO course_stats AS s (course_id, enrollments, completions, progress_sum)
      SELECT n.course_id, count(*), count(*) FILTER (WHERE n.is_completed), sum(n.progress)
      FROM new_rows n WHERE EXISTS (SELECT 1 FROM courses c WHERE c.id = n.course_id)
      GROUP BY n.course_id
    ON CONFLICT (course_id) DO UPDATE SET
      enrollments = s.enrollments + excluded.enrollments,
      completions = s.completions + excluded.completions,
      progress_sum = s.progress_sum + excluded.progress_sum;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE course_stats s SET
      enrollments = s.enrollments - d.n,
      completions = s.completions - d.c,
      progress_sum = s.progress_sum - d.p
    FROM (SELECT course_id, count(*) AS n, count(*) FILTER (WHERE is_completed) AS c,
            sum(progress) AS p FROM old_rows GROUP BY course_id) d
    WHERE s.course_id = d.course_id;
  ELSE
    UPDATE course_stats s SET
      completions = s.completions + d.c,
      progress_sum = s.progress_sum + d.p
    FROM (SELECT course_id, sum(c) AS c, sum(p) AS p FROM (
            SELECT course_id, (is_completed::int) AS c, progress AS p FROM new_rows
            UNION ALL
            SELECT course_id, -(is_completed::int), -progress FROM old_rows) x
          GROUP BY course_id) d
    WHERE s.course_id = d.course_id AND (d.c <> 0 OR d.p <> 0);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER enrollments_stats_insert AFTER INSERT ON enrollments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_stats_apply();--> statement-breakpoint
CREATE TRIGGER enrollments_stats_delete AFTER DELETE ON enrollments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_stats_apply();--> statement-breakpoint
CREATE TRIGGER enrollments_stats_update AFTER UPDATE ON enrollments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_stats_apply();--> statement-breakpoint
INSERT INTO course_stats (course_id, enrollments, completions, progress_sum)
  SELECT course_id, count(*), count(*) FILTER (WHERE is_completed), sum(progress)
  FROM enrollments GROUP BY course_id;
