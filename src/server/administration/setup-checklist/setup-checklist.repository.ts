import { eq } from "drizzle-orm";
import { courseSummaries } from "../../catalogue";
import type { Executor } from "../../db/client";
import { setupChecklistDismissals } from "./setup-checklist.table";

export function createSetupChecklistRepository(db: Executor) {
  return {
    /** Whether any course is published: learners have something to take. */
    async anyCoursePublished(): Promise<boolean> {
      const rows = await db
        .select({ id: courseSummaries.id })
        .from(courseSummaries)
        .where(eq(courseSummaries.isPublished, true))
        .limit(1);
      return rows.length > 0;
    },

    async isDismissed(userId: string): Promise<boolean> {
      const rows = await db
        .select({ userId: setupChecklistDismissals.userId })
        .from(setupChecklistDismissals)
        .where(eq(setupChecklistDismissals.userId, userId));
      return rows.length > 0;
    },

    /** Once is enough: dismissing again keeps the first moment. */
    async dismiss(userId: string): Promise<void> {
      await db.insert(setupChecklistDismissals).values({ userId }).onConflictDoNothing();
    },
  };
}
