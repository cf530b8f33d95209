CREATE TABLE "module_captions" (
	"course_id" text NOT NULL,
	"module_id" text NOT NULL,
	"language" text NOT NULL,
	"label" text NOT NULL,
	"content" text NOT NULL,
	"cues" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "module_captions_course_id_module_id_language_pk" PRIMARY KEY("course_id","module_id","language"),
	CONSTRAINT "module_captions_language_check" CHECK (char_length("module_captions"."language") between 2 and 35),
	CONSTRAINT "module_captions_label_check" CHECK (char_length("module_captions"."label") between 1 and 60),
	CONSTRAINT "module_captions_content_check" CHECK (octet_length("module_captions"."content") <= 1048576)
);
--> statement-breakpoint
CREATE TABLE "module_transcripts" (
	"course_id" text NOT NULL,
	"module_id" text NOT NULL,
	"transcript" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "module_transcripts_course_id_module_id_pk" PRIMARY KEY("course_id","module_id"),
	CONSTRAINT "module_transcripts_length_check" CHECK (char_length("module_transcripts"."transcript") between 1 and 100000)
);
--> statement-breakpoint
ALTER TABLE "module_captions" ADD CONSTRAINT "module_captions_module_fk" FOREIGN KEY ("course_id","module_id") REFERENCES "public"."modules"("course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_transcripts" ADD CONSTRAINT "module_transcripts_module_fk" FOREIGN KEY ("course_id","module_id") REFERENCES "public"."modules"("course_id","id") ON DELETE cascade ON UPDATE no action;
