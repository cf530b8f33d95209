CREATE TABLE "user_stats" (
	"role" text NOT NULL,
	"status" text NOT NULL,
	"users" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_stats_role_status_pk" PRIMARY KEY("role","status")
);
--> statement-breakpoint
-- Keeps user_stats in step with users (so the dashboard does not count 100,000
-- learners twice per request). Statement-level triggers with transition tables, as course_stats: a bulk
-- insert costs one grouped upsert. Rows are upserted in key order, so two transactions
-- never lock the counters in opposite orders; an update that changes no role or status
-- writes nothing (no lock on the counters for profile or password changes).
CREATE FUNCTION user_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_stats AS s (role, status, users)
      SELECT role, status, count(*) FROM new_rows GROUP BY role, status ORDER BY role, status
    ON CONFLICT (role, status) DO UPDATE SET users = s.users + excluded.users;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO user_stats AS s (role, status, users)
      SELECT role, status, -count(*) FROM old_rows GROUP BY role, status ORDER BY role, status
    ON CONFLICT (role, status) DO UPDATE SET users = s.users + excluded.users;
  ELSE
    INSERT INTO user_stats AS s (role, status, users)
      SELECT role, status, sum(n) FROM (
        SELECT role, status, 1 AS n FROM new_rows
        UNION ALL
        SELECT role, status, -1 FROM old_rows) x
      GROUP BY role, status HAVING sum(n) <> 0 ORDER BY role, status
    ON CONFLICT (role, status) DO UPDATE SET users = s.users + excluded.users;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION user_stats_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_stats;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_stats_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_stats_apply();--> statement-breakpoint
CREATE TRIGGER users_stats_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_stats_apply();--> statement-breakpoint
CREATE TRIGGER users_stats_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_stats_apply();--> statement-breakpoint
-- TRUNCATE fires no DELETE trigger (seed:scale and the test reset use it).
CREATE TRIGGER users_stats_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION user_stats_reset();--> statement-breakpoint
INSERT INTO user_stats (role, status, users)
  SELECT role, status, count(*) FROM users GROUP BY role, status;
