CREATE TABLE "cmi5_agent_profiles" (
	"user_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cmi5_agent_profiles_user_id_profile_id_pk" PRIMARY KEY("user_id","profile_id")
);
--> statement-breakpoint
CREATE TABLE "cmi5_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"registration" uuid NOT NULL,
	"user_id" text NOT NULL,
	"au_index" integer NOT NULL,
	"au_id" text NOT NULL,
	"activity_id" text NOT NULL,
	"launch_mode" text NOT NULL,
	"state" text DEFAULT 'launched' NOT NULL,
	"fetch_token_hash" text NOT NULL,
	"fetched_at" timestamp with time zone,
	"auth_token_hash" text,
	"auth_expires_at" timestamp with time zone,
	"launch_data_read" boolean DEFAULT false NOT NULL,
	"preferences_read" boolean DEFAULT false NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"passed" boolean DEFAULT false NOT NULL,
	"failed" boolean DEFAULT false NOT NULL,
	"reported_seconds" double precision,
	"launched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "cmi5_sessions_state_check" CHECK ("cmi5_sessions"."state" in ('launched', 'initialized', 'terminated', 'abandoned')),
	CONSTRAINT "cmi5_sessions_launch_mode_check" CHECK ("cmi5_sessions"."launch_mode" in ('Normal', 'Browse', 'Review'))
);
--> statement-breakpoint
CREATE TABLE "cmi5_statements" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" uuid NOT NULL,
	"registration" uuid NOT NULL,
	"verb" text NOT NULL,
	"object_id" text,
	"session_id" uuid,
	"statement" jsonb NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cmi5_states" (
	"registration" uuid NOT NULL,
	"activity_id" text NOT NULL,
	"state_id" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cmi5_states_registration_activity_id_state_id_pk" PRIMARY KEY("registration","activity_id","state_id")
);
--> statement-breakpoint
ALTER TABLE "cmi5_agent_profiles" ADD CONSTRAINT "cmi5_agent_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cmi5_sessions" ADD CONSTRAINT "cmi5_sessions_registration_package_attempts_registration_fk" FOREIGN KEY ("registration") REFERENCES "public"."package_attempts"("registration") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cmi5_statements" ADD CONSTRAINT "cmi5_statements_registration_package_attempts_registration_fk" FOREIGN KEY ("registration") REFERENCES "public"."package_attempts"("registration") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cmi5_states" ADD CONSTRAINT "cmi5_states_registration_package_attempts_registration_fk" FOREIGN KEY ("registration") REFERENCES "public"."package_attempts"("registration") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cmi5_sessions_fetch_token_idx" ON "cmi5_sessions" USING btree ("fetch_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "cmi5_sessions_auth_token_idx" ON "cmi5_sessions" USING btree ("auth_token_hash");--> statement-breakpoint
CREATE INDEX "cmi5_sessions_registration_idx" ON "cmi5_sessions" USING btree ("registration","state");--> statement-breakpoint
CREATE UNIQUE INDEX "cmi5_statements_id_idx" ON "cmi5_statements" USING btree ("id");--> statement-breakpoint
CREATE INDEX "cmi5_statements_registration_idx" ON "cmi5_statements" USING btree ("registration","seq");