-- A learner's cached enrollments (enrollments.service.ts) hold their completed
-- modules too, so a completion recorded or removed is announced as a change of that learner's
-- enrollments, whether or not an enrollment row changes with it. The announcing of a set of
-- learners is one function, shared by both tables' statement triggers.
CREATE FUNCTION credo_notify_learners(learners text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	-- A statement touching many learners (a course's recompute, a bulk load) announces them all.
	IF cardinality(learners) > 1000 THEN
		PERFORM pg_notify('credo_changes', 'enrollments:*');
	ELSE
		PERFORM pg_notify('credo_changes', 'enrollments:' || learner) FROM unnest(learners) AS learner;
	END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION credo_notify_enrollments_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('credo_changes', 'enrollments:*');
	ELSIF TG_OP = 'INSERT' THEN
		PERFORM credo_notify_learners(ARRAY(SELECT DISTINCT user_id FROM new_rows));
	ELSE
		PERFORM credo_notify_learners(ARRAY(SELECT DISTINCT user_id FROM old_rows));
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A completion removed with its enrollment finds no enrollment here: the enrollment's own
-- delete trigger has announced its learner.
CREATE FUNCTION credo_notify_completions_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('credo_changes', 'enrollments:*');
	ELSIF TG_OP = 'INSERT' THEN
		PERFORM credo_notify_learners(ARRAY(
			SELECT DISTINCT e.user_id FROM new_rows c JOIN enrollments e ON e.id = c.enrollment_id));
	ELSE
		PERFORM credo_notify_learners(ARRAY(
			SELECT DISTINCT e.user_id FROM old_rows c JOIN enrollments e ON e.id = c.enrollment_id));
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER module_completions_notify_insert AFTER INSERT ON "module_completions"
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_completions_change();
--> statement-breakpoint
CREATE TRIGGER module_completions_notify_update AFTER UPDATE ON "module_completions"
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_completions_change();
--> statement-breakpoint
CREATE TRIGGER module_completions_notify_delete AFTER DELETE ON "module_completions"
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_completions_change();
--> statement-breakpoint
CREATE TRIGGER module_completions_notify_truncate AFTER TRUNCATE ON "module_completions"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_completions_change();
