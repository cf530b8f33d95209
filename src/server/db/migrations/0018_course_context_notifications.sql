-- Each course's credit context (its activity, exam settings and questions, beside the course
-- and its modules) is cached in each instance's memory (enrollments/course-contexts.ts). A
-- change to any of them is announced as a change of its course, as a module change is, so
-- every instance drops the course at commit.
CREATE TRIGGER course_activity_notify_change AFTER INSERT OR UPDATE OR DELETE ON "course_activity"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER course_activity_notify_truncate AFTER TRUNCATE ON "course_activity"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER exam_settings_notify_change AFTER INSERT OR UPDATE OR DELETE ON "exam_settings"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER exam_settings_notify_truncate AFTER TRUNCATE ON "exam_settings"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER questions_notify_change AFTER INSERT OR UPDATE OR DELETE ON "questions"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_module_change();
--> statement-breakpoint
CREATE TRIGGER questions_notify_truncate AFTER TRUNCATE ON "questions"
	FOR EACH STATEMENT EXECUTE FUNCTION credo_notify_module_change();
