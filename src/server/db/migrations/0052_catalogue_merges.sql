-- Each catalogue type merged into another: credit already issued under the merged type adds
-- up under the type it became. Merges made before this table are followed by the learners'
-- claims, which a merge moves.
CREATE TABLE "credit_catalogue_merges" (
	"from_id" text PRIMARY KEY NOT NULL,
	"into_id" text NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL
);
