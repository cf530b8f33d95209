-- Trigram indexes serve the Learners page search (name or email, substring, any case).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
-- Per-course and overall aggregates read only this index (index-only scans).
CREATE INDEX IF NOT EXISTS "enrollments_course_stats_idx" ON "enrollments" USING btree ("course_id") INCLUDE ("progress", "is_completed");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enrollments_user_stats_idx" ON "enrollments" USING btree ("user_id") INCLUDE ("progress", "is_completed", "course_id");
