import { max } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { moduleWatch } from "./watching.table";

/**
 * When each learner last watched each course's videos (the last heartbeat of any of its
 * modules): how reminders tell an idle learner from one still watching. A subquery joined in
 * their own statement.
 */
export const lastBeats = new QueryBuilder()
  .select({
    userId: moduleWatch.userId,
    courseId: moduleWatch.courseId,
    lastBeatAt: max(moduleWatch.lastHeartbeatAt).as("last_beat_at"),
  })
  .from(moduleWatch)
  .groupBy(moduleWatch.userId, moduleWatch.courseId)
  .as("last_beats");
