CREATE TABLE "course_form_steps" (
	"course_id" text NOT NULL,
	"step" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"items" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_form_steps_course_id_step_pk" PRIMARY KEY("course_id","step")
);
--> statement-breakpoint
CREATE TABLE "form_step_answers" (
	"id" text PRIMARY KEY NOT NULL,
	"enrollment_id" text,
	"user_id" text,
	"course_id" text,
	"learner_name" text NOT NULL,
	"learner_email" text NOT NULL,
	"course_title" text NOT NULL,
	"retain_until" timestamp with time zone NOT NULL,
	"step" text NOT NULL,
	"items" jsonb NOT NULL,
	"answers" jsonb NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "form_step_answers_enrollment_step_unique" UNIQUE("enrollment_id","step")
);
--> statement-breakpoint
ALTER TABLE "course_form_steps" ADD CONSTRAINT "course_form_steps_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_step_answers" ADD CONSTRAINT "form_step_answers_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_step_answers" ADD CONSTRAINT "form_step_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_step_answers" ADD CONSTRAINT "form_step_answers_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;