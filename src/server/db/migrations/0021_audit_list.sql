-- The audit list on screen filters by who acted and by what happened, newest first. Each
-- filter reads its own index, ending in seq, backwards, as the learner and course filters do.
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_type_idx" ON "audit_events" USING btree ("type","seq");
