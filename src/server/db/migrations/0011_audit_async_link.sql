-- Appends take no lock on the chain head. `append` inserts a row's content with
-- seq, prev_hash and hash null, in the caller's transaction and without any shared lock;
-- the linker (audit.service.ts) then places committed rows in the chain, in id order,
-- under the head's lock. `id` is the insertion order.
--
-- Every existing row is already linked: it keeps its seq, prev_hash and hash, and takes
-- id = seq, so the two orders agree. The append-only trigger is lifted for that one
-- statement only, inside the migration's transaction.
ALTER TABLE "audit_events" ADD COLUMN "id" bigint;--> statement-breakpoint
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_no_update";--> statement-breakpoint
UPDATE "audit_events" SET "id" = "seq";--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_no_update";--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_pkey";--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "id" ADD GENERATED ALWAYS AS IDENTITY (SEQUENCE NAME "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"audit_events_id_seq"', coalesce(max("id"), 0) + 1, false) FROM "audit_events";--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "seq" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "prev_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_linked_whole" CHECK (("audit_events"."seq" is null) = ("audit_events"."hash" is null) and ("audit_events"."hash" is null) = ("audit_events"."prev_hash" is null));--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_seq_idx" ON "audit_events" USING btree ("seq");--> statement-breakpoint
-- The linker's queue: only unlinked rows are in it, so finding them never scans the trail.
CREATE INDEX "audit_events_unlinked_idx" ON "audit_events" USING btree ("id") WHERE "audit_events"."hash" is null;--> statement-breakpoint
-- Still append-only, with one exception: the linker's update of an unlinked row, which sets
-- seq, prev_hash and hash and changes nothing else (every other column, present or added
-- later, compared through to_jsonb). A linked row never changes again; DELETE is refused.
-- The linking itself is not trusted: `npm run audit:verify` recomputes every hash.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND OLD.seq IS NULL AND OLD.prev_hash IS NULL AND OLD.hash IS NULL
    AND NEW.seq IS NOT NULL AND NEW.prev_hash IS NOT NULL AND NEW.hash IS NOT NULL
    AND (to_jsonb(NEW) - ARRAY['seq', 'prev_hash', 'hash'])::text
      = (to_jsonb(OLD) - ARRAY['seq', 'prev_hash', 'hash'])::text THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
