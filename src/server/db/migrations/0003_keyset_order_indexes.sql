-- ORDER BY created_at DESC means NULLS FIRST: the DESC NULLS LAST indexes of 0000/0001 could not
-- serve the newest-first keyset pages or recent completions (EXPLAIN showed sorts over seq
-- scans). users_role_status_idx answers the learner counts with index-only scans.
DROP INDEX "users_role_created_idx";--> statement-breakpoint
DROP INDEX "courses_created_idx";--> statement-breakpoint
DROP INDEX "enrollments_created_idx";--> statement-breakpoint
DROP INDEX "enrollments_completed_idx";--> statement-breakpoint
CREATE INDEX "users_role_status_idx" ON "users" USING btree ("role","status");--> statement-breakpoint
CREATE INDEX "users_role_created_idx" ON "users" USING btree ("role","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "courses_created_idx" ON "courses" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "enrollments_created_idx" ON "enrollments" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "enrollments_completed_idx" ON "enrollments" USING btree ("completed_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "enrollments"."is_completed";