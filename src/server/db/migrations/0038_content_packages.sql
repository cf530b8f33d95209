CREATE TABLE "content_packages" (
	"id" text PRIMARY KEY NOT NULL,
	"source_path" text NOT NULL,
	"status" text DEFAULT 'unpacking' NOT NULL,
	"standard" text NOT NULL,
	"version" text NOT NULL,
	"title" text NOT NULL,
	"items" jsonb NOT NULL,
	"structure" jsonb NOT NULL,
	"file_count" integer NOT NULL,
	"expanded_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_packages_status_check" CHECK ("content_packages"."status" in ('unpacking', 'ready')),
	CONSTRAINT "content_packages_standard_check" CHECK ("content_packages"."standard" in ('scorm12', 'scorm2004', 'cmi5')),
	CONSTRAINT "content_packages_file_count_check" CHECK ("content_packages"."file_count" >= 0),
	CONSTRAINT "content_packages_expanded_bytes_check" CHECK ("content_packages"."expanded_bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "objects" DROP CONSTRAINT "objects_kind_check";--> statement-breakpoint
ALTER TABLE "modules" ALTER COLUMN "video_url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "kind" text DEFAULT 'video' NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "package_id" text;--> statement-breakpoint
CREATE INDEX "content_packages_source_idx" ON "content_packages" USING btree ("source_path");--> statement-breakpoint
CREATE INDEX "content_packages_status_created_idx" ON "content_packages" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_package_id_content_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."content_packages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "modules_package_idx" ON "modules" USING btree ("package_id");--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_kind_check" CHECK ("modules"."kind" in ('video', 'scorm', 'cmi5'));--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_content_check" CHECK (("modules"."kind" = 'video' and "modules"."video_url" is not null and "modules"."package_id" is null) or ("modules"."kind" <> 'video' and "modules"."video_url" is null and "modules"."package_id" is not null));--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_kind_check" CHECK ("objects"."kind" in ('thumbnail', 'video', 'logo', 'package'));