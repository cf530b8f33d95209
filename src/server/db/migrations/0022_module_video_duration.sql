-- A video's playing time in seconds, read from the file itself when its upload is checked
-- (null when the file does not state it); a module keeps its video's, so its stated length
-- in whole minutes can be compared with what the learner will actually watch.
ALTER TABLE "objects" ADD COLUMN "duration_seconds" double precision;--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_duration_seconds_check" CHECK ("objects"."duration_seconds" > 0);--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "video_seconds" double precision;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_video_seconds_check" CHECK ("modules"."video_seconds" > 0);
