CREATE TABLE "module_watch" (
	"user_id" text NOT NULL,
	"course_id" text NOT NULL,
	"module_id" text NOT NULL,
	"video_url" text NOT NULL,
	"duration_seconds" double precision,
	"intervals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"watched_seconds" double precision DEFAULT 0 NOT NULL,
	"seat_seconds" double precision DEFAULT 0 NOT NULL,
	"position_seconds" double precision DEFAULT 0 NOT NULL,
	"heartbeats" integer DEFAULT 0 NOT NULL,
	"last_heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "module_watch_user_id_course_id_module_id_pk" PRIMARY KEY("user_id","course_id","module_id"),
	CONSTRAINT "module_watch_duration_check" CHECK ("module_watch"."duration_seconds" > 0),
	CONSTRAINT "module_watch_seconds_check" CHECK ("module_watch"."watched_seconds" >= 0 and "module_watch"."seat_seconds" >= 0 and "module_watch"."position_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "watch_clocks" (
	"user_id" text NOT NULL,
	"course_id" text NOT NULL,
	"credit_clock_at" timestamp with time zone NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL,
	CONSTRAINT "watch_clocks_user_id_course_id_pk" PRIMARY KEY("user_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "module_watch" ADD CONSTRAINT "module_watch_enrollment_fk" FOREIGN KEY ("user_id","course_id") REFERENCES "public"."enrollments"("user_id","course_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_clocks" ADD CONSTRAINT "watch_clocks_enrollment_fk" FOREIGN KEY ("user_id","course_id") REFERENCES "public"."enrollments"("user_id","course_id") ON DELETE cascade ON UPDATE no action;
