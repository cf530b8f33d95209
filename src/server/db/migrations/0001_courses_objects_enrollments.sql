CREATE TABLE "courses" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"duration" integer NOT NULL,
	"thumbnail" text,
	"created_by" text,
	"is_published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "courses_duration_check" CHECK ("courses"."duration" >= 1),
	CONSTRAINT "courses_category_check" CHECK ("courses"."category" in ('Development', 'Database', 'Mobile', 'Design'))
);
--> statement-breakpoint
CREATE TABLE "modules" (
	"course_id" text NOT NULL,
	"id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"duration" integer NOT NULL,
	"video_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "modules_course_id_id_pk" PRIMARY KEY("course_id","id"),
	CONSTRAINT "modules_duration_check" CHECK ("modules"."duration" >= 1)
);
--> statement-breakpoint
CREATE TABLE "enrollments" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"course_id" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"is_completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enrollments_user_course_unique" UNIQUE("user_id","course_id"),
	CONSTRAINT "enrollments_progress_check" CHECK ("enrollments"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "module_completions" (
	"enrollment_id" text NOT NULL,
	"module_id" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "module_completions_enrollment_id_module_id_pk" PRIMARY KEY("enrollment_id","module_id")
);
--> statement-breakpoint
CREATE TABLE "objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"declared_type" text NOT NULL,
	"declared_size" bigint NOT NULL,
	"content_type" text,
	"size" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"owner_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "objects_kind_check" CHECK ("objects"."kind" in ('thumbnail', 'video')),
	CONSTRAINT "objects_status_check" CHECK ("objects"."status" in ('pending', 'uploaded', 'ready', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_completions" ADD CONSTRAINT "module_completions_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courses_created_idx" ON "courses" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "courses_thumbnail_idx" ON "courses" USING btree ("thumbnail");--> statement-breakpoint
CREATE INDEX "modules_course_position_idx" ON "modules" USING btree ("course_id","position");--> statement-breakpoint
CREATE INDEX "modules_video_idx" ON "modules" USING btree ("video_url");--> statement-breakpoint
CREATE INDEX "enrollments_course_idx" ON "enrollments" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "enrollments_user_created_idx" ON "enrollments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "enrollments_created_idx" ON "enrollments" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "enrollments_completed_idx" ON "enrollments" USING btree ("completed_at" DESC NULLS LAST) WHERE "enrollments"."is_completed";--> statement-breakpoint
CREATE INDEX "objects_status_created_idx" ON "objects" USING btree ("status","created_at");