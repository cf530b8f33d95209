-- Each course keeps its rules of completion's version (requests) beside the requests its learners
-- were recomputed after: a learner's step checks the version it read, and a recompute is marked
-- done instead of deleted.
ALTER TABLE "completion_recomputes" ADD COLUMN "recomputed" integer DEFAULT 0 NOT NULL;