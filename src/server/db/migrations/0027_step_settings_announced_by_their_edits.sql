-- A course's credit context (its activity, exam settings and questions) is dropped from every
-- instance's cache by the event its edits publish (course.rules-changed, which also recomputes
-- the course's learners), announced in the edit's transaction: the settings tables of the
-- completion steps need no trigger of their own.
DROP TRIGGER IF EXISTS course_activity_notify_change ON "course_activity";
--> statement-breakpoint
DROP TRIGGER IF EXISTS course_activity_notify_truncate ON "course_activity";
--> statement-breakpoint
DROP TRIGGER IF EXISTS exam_settings_notify_change ON "exam_settings";
--> statement-breakpoint
DROP TRIGGER IF EXISTS exam_settings_notify_truncate ON "exam_settings";
--> statement-breakpoint
DROP TRIGGER IF EXISTS questions_notify_change ON "questions";
--> statement-breakpoint
DROP TRIGGER IF EXISTS questions_notify_truncate ON "questions";
