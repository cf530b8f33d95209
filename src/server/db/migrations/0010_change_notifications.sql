-- The sessions and the course catalogue are cached in each instance's memory
-- (db/change-feed.ts). Every change to what those caches hold is announced on one channel,
-- delivered at commit to every instance, so a revoked session, a restricted learner or an
-- unpublished course is dropped from every cache. Payload: '<table>:<key>', or '<table>:*'
-- after a TRUNCATE. The key column is the trigger's argument.
CREATE FUNCTION credo_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('credo_changes', TG_TABLE_NAME || ':*');
	ELSIF TG_OP = 'INSERT' THEN
		PERFORM pg_notify('credo_changes', TG_TABLE_NAME || ':' || (to_jsonb(NEW) ->> TG_ARGV[0]));
	ELSE
		PERFORM pg_notify('credo_changes', TG_TABLE_NAME || ':' || (to_jsonb(OLD) ->> TG_ARGV[0]));
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_change AFTER UPDATE OR DELETE ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_change('id_hash');
--> statement-breakpoint
CREATE TRIGGER sessions_notify_truncate AFTER TRUNCATE ON "sessions"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_change();
--> statement-breakpoint
CREATE TRIGGER users_notify_change AFTER UPDATE OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER users_notify_truncate AFTER TRUNCATE ON "users"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_change();
--> statement-breakpoint
CREATE TRIGGER courses_notify_change AFTER UPDATE OR DELETE ON "courses"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER courses_notify_truncate AFTER TRUNCATE ON "courses"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_change();
--> statement-breakpoint
-- A module change is announced as a change of its course (the cache holds courses whole).
CREATE FUNCTION credo_notify_module_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('credo_changes', 'courses:*');
	ELSIF TG_OP = 'INSERT' THEN
		PERFORM pg_notify('credo_changes', 'courses:' || NEW.course_id);
	ELSE
		PERFORM pg_notify('credo_changes', 'courses:' || OLD.course_id);
		IF TG_OP = 'UPDATE' AND NEW.course_id IS DISTINCT FROM OLD.course_id THEN
			PERFORM pg_notify('credo_changes', 'courses:' || NEW.course_id);
		END IF;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER modules_notify_change AFTER INSERT OR UPDATE OR DELETE ON "modules"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER modules_notify_truncate AFTER TRUNCATE ON "modules"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
-- A learner's enrollments (with progress) are cached per learner: any change of their rows is
-- announced as 'enrollments:<user id>', once per learner and statement. A statement touching
-- more than 1,000 learners (a course's recompute, a bulk load) announces 'enrollments:*'.
CREATE FUNCTION credo_notify_enrollments_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	learners integer;
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('credo_changes', 'enrollments:*');
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		SELECT count(DISTINCT user_id) INTO learners FROM new_rows;
		IF learners > 1000 THEN
			PERFORM pg_notify('credo_changes', 'enrollments:*');
		ELSE
			PERFORM pg_notify('credo_changes', 'enrollments:' || user_id)
				FROM (SELECT DISTINCT user_id FROM new_rows) AS changed;
		END IF;
	ELSE
		SELECT count(DISTINCT user_id) INTO learners FROM old_rows;
		IF learners > 1000 THEN
			PERFORM pg_notify('credo_changes', 'enrollments:*');
		ELSE
			PERFORM pg_notify('credo_changes', 'enrollments:' || user_id)
				FROM (SELECT DISTINCT user_id FROM old_rows) AS changed;
		END IF;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER enrollments_notify_insert AFTER INSERT ON "enrollments"
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_enrollments_change();
--> statement-breakpoint
CREATE TRIGGER enrollments_notify_update AFTER UPDATE ON "enrollments"
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_enrollments_change();
--> statement-breakpoint
CREATE TRIGGER enrollments_notify_delete AFTER DELETE ON "enrollments"
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_enrollments_change();
--> statement-breakpoint
CREATE TRIGGER enrollments_notify_truncate AFTER TRUNCATE ON "enrollments"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_enrollments_change();
