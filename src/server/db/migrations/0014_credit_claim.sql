CREATE TABLE "acknowledgements" (
	"id" text PRIMARY KEY NOT NULL,
	"enrollment_id" text,
	"user_id" text,
	"course_id" text,
	"learner_name" text NOT NULL,
	"learner_email" text NOT NULL,
	"course_title" text NOT NULL,
	"retain_until" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "acknowledgements_enrollment_unique" UNIQUE("enrollment_id")
);
--> statement-breakpoint
CREATE TABLE "attestations" (
	"id" text PRIMARY KEY NOT NULL,
	"enrollment_id" text,
	"user_id" text,
	"course_id" text,
	"learner_name" text NOT NULL,
	"learner_email" text NOT NULL,
	"course_title" text NOT NULL,
	"retain_until" timestamp with time zone NOT NULL,
	"statement" text NOT NULL,
	"credits_claimed" numeric(6, 2),
	"designated_credits" numeric(6, 2),
	"ip" text,
	"user_agent" text,
	"attested_at" timestamp with time zone NOT NULL,
	CONSTRAINT "attestations_enrollment_unique" UNIQUE("enrollment_id")
);
--> statement-breakpoint
CREATE TABLE "course_activity" (
	"course_id" text PRIMARY KEY NOT NULL,
	"objectives" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"faculty" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"disclosure_statement" text DEFAULT '' NOT NULL,
	"accreditation_statement" text DEFAULT '' NOT NULL,
	"release_date" date,
	"review_date" date,
	"expiration_date" date,
	"enrollment_valid_days" integer,
	"acknowledgement_required" boolean DEFAULT false NOT NULL,
	"evaluation_required" boolean DEFAULT false NOT NULL,
	"attestation_required" boolean DEFAULT false NOT NULL,
	"attestation_text" text DEFAULT '' NOT NULL,
	"partial_credit_step" numeric(6, 2),
	"retention_years" integer DEFAULT 6 NOT NULL,
	"evaluation_items" jsonb,
	"sponsor_name" text DEFAULT '' NOT NULL,
	"sponsor_address" text DEFAULT '' NOT NULL,
	"delivery_method" text DEFAULT '' NOT NULL,
	"fields_of_study" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"registry_number" text DEFAULT '' NOT NULL,
	"official_name" text DEFAULT '' NOT NULL,
	"official_title" text DEFAULT '' NOT NULL,
	"signature_id" text,
	"licence_required" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_activity_validity_check" CHECK ("course_activity"."enrollment_valid_days" >= 1),
	CONSTRAINT "course_activity_retention_check" CHECK ("course_activity"."retention_years" >= 1),
	CONSTRAINT "course_activity_step_check" CHECK ("course_activity"."partial_credit_step" > 0)
);
--> statement-breakpoint
CREATE TABLE "evaluation_responses" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text,
	"course_title" text NOT NULL,
	"items" jsonb NOT NULL,
	"answers" jsonb NOT NULL,
	"month" date NOT NULL,
	"retain_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"enrollment_id" text,
	"user_id" text,
	"course_id" text,
	"learner_name" text NOT NULL,
	"learner_email" text NOT NULL,
	"course_title" text NOT NULL,
	"retain_until" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "evaluation_submissions_enrollment_unique" UNIQUE("enrollment_id")
);
--> statement-breakpoint
CREATE TABLE "learner_licences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"licence_type" text DEFAULT '' NOT NULL,
	"licence_number" text DEFAULT '' NOT NULL,
	"licence_state" text DEFAULT '' NOT NULL,
	"npn" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signatures" (
	"id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "learner_email" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "credit" jsonb;--> statement-breakpoint
ALTER TABLE "acknowledgements" ADD CONSTRAINT "acknowledgements_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acknowledgements" ADD CONSTRAINT "acknowledgements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acknowledgements" ADD CONSTRAINT "acknowledgements_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attestations" ADD CONSTRAINT "attestations_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attestations" ADD CONSTRAINT "attestations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attestations" ADD CONSTRAINT "attestations_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_activity" ADD CONSTRAINT "course_activity_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_activity" ADD CONSTRAINT "course_activity_signature_id_signatures_id_fk" FOREIGN KEY ("signature_id") REFERENCES "public"."signatures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_responses" ADD CONSTRAINT "evaluation_responses_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_submissions" ADD CONSTRAINT "evaluation_submissions_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_submissions" ADD CONSTRAINT "evaluation_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_submissions" ADD CONSTRAINT "evaluation_submissions_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_licences" ADD CONSTRAINT "learner_licences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evaluation_responses_course_idx" ON "evaluation_responses" USING btree ("course_id");--> statement-breakpoint
-- Credit records (acknowledgements, evaluation submissions and responses, attestations) are
-- what an accreditor audits: none changes once written, but for the clearing of its links
-- when the learner, course or enrollment is deleted (the record keeps the names), and none
-- is deleted before the course's retention period has run out.
CREATE FUNCTION credit_records_retained() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  links text[] := ARRAY['enrollment_id', 'user_id', 'course_id'];
  link text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.retain_until > now() THEN
      RAISE EXCEPTION 'credit records are kept until %', OLD.retain_until USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF (to_jsonb(NEW) - links) IS DISTINCT FROM (to_jsonb(OLD) - links) THEN
    RAISE EXCEPTION 'a credit record does not change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  FOREACH link IN ARRAY links LOOP
    IF (to_jsonb(NEW) ->> link) IS NOT NULL AND (to_jsonb(NEW) ->> link) IS DISTINCT FROM (to_jsonb(OLD) ->> link) THEN
      RAISE EXCEPTION 'a credit record does not change' USING ERRCODE = 'insufficient_privilege';
    END IF;
  END LOOP;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER acknowledgements_retained BEFORE UPDATE OR DELETE ON acknowledgements
  FOR EACH ROW EXECUTE FUNCTION credit_records_retained();--> statement-breakpoint
CREATE TRIGGER evaluation_submissions_retained BEFORE UPDATE OR DELETE ON evaluation_submissions
  FOR EACH ROW EXECUTE FUNCTION credit_records_retained();--> statement-breakpoint
CREATE TRIGGER evaluation_responses_retained BEFORE UPDATE OR DELETE ON evaluation_responses
  FOR EACH ROW EXECUTE FUNCTION credit_records_retained();--> statement-breakpoint
CREATE TRIGGER attestations_retained BEFORE UPDATE OR DELETE ON attestations
  FOR EACH ROW EXECUTE FUNCTION credit_records_retained();--> statement-breakpoint
-- A signature an issued certificate points at never changes.
CREATE FUNCTION signatures_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'signatures are kept as issued certificates show them' USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER signatures_no_change BEFORE UPDATE OR DELETE ON signatures
  FOR EACH ROW EXECUTE FUNCTION signatures_immutable();--> statement-breakpoint
CREATE OR REPLACE FUNCTION certificates_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'certificates are never deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.id IS DISTINCT FROM OLD.id OR NEW.code IS DISTINCT FROM OLD.code
    OR NEW.learner_name IS DISTINCT FROM OLD.learner_name
    OR NEW.learner_email IS DISTINCT FROM OLD.learner_email
    OR NEW.course_title IS DISTINCT FROM OLD.course_title
    OR NEW.course_category IS DISTINCT FROM OLD.course_category
    OR NEW.duration_hours IS DISTINCT FROM OLD.duration_hours
    OR NEW.credit_hours IS DISTINCT FROM OLD.credit_hours
    OR NEW.credit_type IS DISTINCT FROM OLD.credit_type
    OR NEW.accrediting_body IS DISTINCT FROM OLD.accrediting_body
    OR NEW.provider_number IS DISTINCT FROM OLD.provider_number
    OR NEW.issuer_name IS DISTINCT FROM OLD.issuer_name
    OR NEW.exam_score IS DISTINCT FROM OLD.exam_score
    OR NEW.exam_passed_at IS DISTINCT FROM OLD.exam_passed_at
    OR NEW.credit IS DISTINCT FROM OLD.credit
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
$$;
