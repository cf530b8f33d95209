CREATE TABLE "exam_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"enrollment_id" text,
	"user_id" text,
	"course_id" text,
	"learner_name" text NOT NULL,
	"learner_email" text NOT NULL,
	"number" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone,
	"pass_mark" integer NOT NULL,
	"reveal_answers" text NOT NULL,
	"questions" jsonb NOT NULL,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answers_saved_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"graded" jsonb,
	"score" integer,
	"passed" boolean,
	CONSTRAINT "exam_attempts_enrollment_number_unique" UNIQUE("enrollment_id","number"),
	CONSTRAINT "exam_attempts_score_check" CHECK ("exam_attempts"."score" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "exam_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"enrollment_id" text NOT NULL,
	"granted_by" text,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_settings" (
	"course_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"question_count" integer NOT NULL,
	"pass_mark" integer NOT NULL,
	"max_attempts" integer,
	"time_limit_minutes" integer,
	"reveal_answers" text NOT NULL,
	"review_required" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exam_settings_count_check" CHECK ("exam_settings"."question_count" between 1 and 200),
	CONSTRAINT "exam_settings_pass_mark_check" CHECK ("exam_settings"."pass_mark" between 1 and 100),
	CONSTRAINT "exam_settings_attempts_check" CHECK ("exam_settings"."max_attempts" >= 1),
	CONSTRAINT "exam_settings_time_check" CHECK ("exam_settings"."time_limit_minutes" >= 1),
	CONSTRAINT "exam_settings_reveal_check" CHECK ("exam_settings"."reveal_answers" in ('never', 'after_pass', 'always'))
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"pool" text NOT NULL,
	"module_id" text,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"options" jsonb NOT NULL,
	"explanation" text,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questions_pool_check" CHECK ("questions"."pool" in ('final', 'review')),
	CONSTRAINT "questions_kind_check" CHECK ("questions"."kind" in ('single', 'multiple', 'true_false')),
	CONSTRAINT "questions_module_check" CHECK (("questions"."pool" = 'review') = ("questions"."module_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "review_answers" (
	"enrollment_id" text NOT NULL,
	"question_id" text NOT NULL,
	"option_ids" jsonb NOT NULL,
	"correct" boolean NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_answers_enrollment_id_question_id_pk" PRIMARY KEY("enrollment_id","question_id")
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "exam_score" integer;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "exam_passed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exam_attempts" ADD CONSTRAINT "exam_attempts_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_attempts" ADD CONSTRAINT "exam_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_attempts" ADD CONSTRAINT "exam_attempts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_grants" ADD CONSTRAINT "exam_grants_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_grants" ADD CONSTRAINT "exam_grants_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_settings" ADD CONSTRAINT "exam_settings_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_module_fk" FOREIGN KEY ("course_id","module_id") REFERENCES "public"."modules"("course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_answers" ADD CONSTRAINT "review_answers_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_answers" ADD CONSTRAINT "review_answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exam_attempts_course_idx" ON "exam_attempts" USING btree ("course_id","started_at");--> statement-breakpoint
CREATE INDEX "exam_attempts_user_idx" ON "exam_attempts" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "exam_grants_enrollment_idx" ON "exam_grants" USING btree ("enrollment_id");--> statement-breakpoint
CREATE INDEX "questions_course_idx" ON "questions" USING btree ("course_id","position");--> statement-breakpoint
-- A graded attempt is a record of credit: it never changes and is never deleted. Only the
-- links to the learner, course and enrollment may be cleared when those are deleted (the
-- attempt keeps the learner's name and what was presented).
CREATE FUNCTION exam_attempts_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'exam attempts are never deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.submitted_at IS NOT NULL AND (
    NEW.id IS DISTINCT FROM OLD.id OR NEW.number IS DISTINCT FROM OLD.number
    OR NEW.learner_name IS DISTINCT FROM OLD.learner_name
    OR NEW.learner_email IS DISTINCT FROM OLD.learner_email
    OR NEW.started_at IS DISTINCT FROM OLD.started_at
    OR NEW.deadline IS DISTINCT FROM OLD.deadline
    OR NEW.pass_mark IS DISTINCT FROM OLD.pass_mark
    OR NEW.reveal_answers IS DISTINCT FROM OLD.reveal_answers
    OR NEW.questions IS DISTINCT FROM OLD.questions
    OR NEW.answers IS DISTINCT FROM OLD.answers
    OR NEW.answers_saved_at IS DISTINCT FROM OLD.answers_saved_at
    OR NEW.submitted_at IS DISTINCT FROM OLD.submitted_at
    OR NEW.graded IS DISTINCT FROM OLD.graded
    OR NEW.score IS DISTINCT FROM OLD.score
    OR NEW.passed IS DISTINCT FROM OLD.passed
    OR (NEW.enrollment_id IS DISTINCT FROM OLD.enrollment_id AND NEW.enrollment_id IS NOT NULL)
    OR (NEW.user_id IS DISTINCT FROM OLD.user_id AND NEW.user_id IS NOT NULL)
    OR (NEW.course_id IS DISTINCT FROM OLD.course_id AND NEW.course_id IS NOT NULL)) THEN
    RAISE EXCEPTION 'a graded exam attempt does not change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER exam_attempts_no_change BEFORE UPDATE OR DELETE ON exam_attempts
  FOR EACH ROW EXECUTE FUNCTION exam_attempts_immutable();--> statement-breakpoint
-- Certificates of courses with a final exam also keep the passing score and its time.
CREATE OR REPLACE FUNCTION certificates_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
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
    OR NEW.exam_score IS DISTINCT FROM OLD.exam_score
    OR NEW.exam_passed_at IS DISTINCT FROM OLD.exam_passed_at
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
