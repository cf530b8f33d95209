import { QueryBuilder } from "drizzle-orm/pg-core";
import { watchClocks } from "./watching.table";

/**
 * When each learner last watched each course's videos (their last heartbeat): how reminders
 * tell an idle learner from one still watching. A subquery joined in their own statement.
 */
export const lastBeats = new QueryBuilder()
  .select({
    userId: watchClocks.userId,
    courseId: watchClocks.courseId,
    lastBeatAt: watchClocks.lastBeatAt,
  })
  .from(watchClocks)
  .as("last_beats");
