-- A cmi5 AU's auth token lasts only as long as the portal sign-in that launched it: ending the
-- sign-in (signing out, a restriction, a deletion) clears the link, and the token is refused.
-- Launches made before the link existed have none: their AUs are launched again.
ALTER TABLE "cmi5_sessions" ADD COLUMN "portal_session" text;--> statement-breakpoint
ALTER TABLE "cmi5_sessions" ADD CONSTRAINT "cmi5_sessions_portal_session_sessions_id_hash_fk" FOREIGN KEY ("portal_session") REFERENCES "public"."sessions"("id_hash") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cmi5_sessions_portal_session_idx" ON "cmi5_sessions" USING btree ("portal_session");