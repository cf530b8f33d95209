CREATE TABLE "audit_events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" text,
	"actor_role" text,
	"type" text NOT NULL,
	"learner_id" text,
	"course_id" text,
	"module_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_learner_idx" ON "audit_events" USING btree ("learner_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_course_idx" ON "audit_events" USING btree ("course_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at","seq");--> statement-breakpoint
CREATE TABLE "audit_head" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_head_single_row" CHECK ("audit_head"."id" = 1)
);
--> statement-breakpoint
-- Append-only: rows of the audit trail are never updated or deleted by the application.
-- This trigger refuses it for every role; a tamperer must first disable it (as owner),
-- and `npm run audit:verify` then finds the broken link. Production should also run the
-- app as a role that does not own the table (see docs/audit.md).
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_no_update BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"enrollment_id" text,
	"user_id" text,
	"course_id" text,
	"learner_name" text NOT NULL,
	"course_title" text NOT NULL,
	"course_category" text NOT NULL,
	"duration_hours" integer NOT NULL,
	"credit_hours" numeric(7, 2),
	"credit_type" text,
	"accrediting_body" text,
	"provider_number" text,
	"issuer_name" text NOT NULL,
	"enrolled_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"revoked_by" text,
	CONSTRAINT "certificates_code_unique" UNIQUE("code"),
	CONSTRAINT "certificates_enrollment_unique" UNIQUE("enrollment_id")
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificates_user_idx" ON "certificates" USING btree ("user_id","completed_at");--> statement-breakpoint
-- An issued certificate never changes: only its revocation may be recorded (once), and the
-- links to the learner, course and enrollment may be cleared when those are deleted (the
-- snapshot keeps the certificate verifiable).
CREATE FUNCTION certificates_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'certificates are never deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.id IS DISTINCT FROM OLD.id OR NEW.code IS DISTINCT FROM OLD.code
    OR NEW.learner_name IS DISTINCT FROM OLD.learner_name
    OR NEW.course_title IS DISTINCT FROM OLD.course_title
    OR NEW.course_category IS DISTINCT FROM OLD.course_category
    OR NEW.duration_hours IS DISTINCT FROM OLD.duration_hours
    OR NEW.credit_hours IS DISTINCT FROM OLD.credit_hours
    OR NEW.credit_type IS DISTINCT FROM OLD.credit_type
    OR NEW.accrediting_body IS DISTINCT FROM OLD.accrediting_body
    OR NEW.provider_number IS DISTINCT FROM OLD.provider_number
    OR NEW.issuer_name IS DISTINCT FROM OLD.issuer_name
    OR NEW.enrolled_at IS DISTINCT FROM OLD.enrolled_at
    OR NEW.completed_at IS DISTINCT FROM OLD.completed_at
    OR NEW.issued_at IS DISTINCT FROM OLD.issued_at
    OR (NEW.enrollment_id IS DISTINCT FROM OLD.enrollment_id AND NEW.enrollment_id IS NOT NULL)
    OR (NEW.user_id IS DISTINCT FROM OLD.user_id AND NEW.user_id IS NOT NULL)
    OR (NEW.course_id IS DISTINCT FROM OLD.course_id AND NEW.course_id IS NOT NULL)
    OR (OLD.revoked_at IS NOT NULL AND (NEW.revoked_at IS DISTINCT FROM OLD.revoked_at
      OR NEW.revoked_reason IS DISTINCT FROM OLD.revoked_reason
      OR NEW.revoked_by IS DISTINCT FROM OLD.revoked_by)) THEN
    RAISE EXCEPTION 'an issued certificate does not change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER certificates_no_change BEFORE UPDATE OR DELETE ON certificates
  FOR EACH ROW EXECUTE FUNCTION certificates_immutable();
