-- Pages of every enrollment are cached in each instance's memory (learning/enrollments): an
-- enrollment added or removed moves every page after it, whoever's it is, so such a statement
-- is also announced as 'enrollments:+' (no learner has that id).
CREATE FUNCTION credo_notify_enrollments_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('credo_changes', 'enrollments:+');
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER enrollments_notify_moved AFTER INSERT OR DELETE ON "enrollments"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_enrollments_moved();
