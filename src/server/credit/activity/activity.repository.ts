import { eq, isNotNull, or } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { courseSettingsOf } from "../../db/course-settings";
import { acknowledgements, courseActivity } from "./activity.table";

/** The columns of a course's activity a save may name; the others keep their value. */
export type ActivityValues = Partial<Omit<typeof courseActivity.$inferInsert, "courseId">>;

/** The course's activity and the acknowledgements; every function runs on the executor it is given. */
export function createActivityRepository(db: Executor) {
  const settings = courseSettingsOf(db, courseActivity);
  return {
    activityOf: settings.of,
    /** The activities with an expiration date or an enrollment validity window. */
    async activitiesWithDeadlines() {
      return db
        .select()
        .from(courseActivity)
        .where(
          or(
            isNotNull(courseActivity.expirationDate),
            isNotNull(courseActivity.enrollmentValidDays),
          ),
        );
    },

    /** Saves the columns named on the locked row: the row as it was and as it is now. */
    edit: settings.edit,

    async acknowledgementOf(enrollmentId: string) {
      const [row] = await db
        .select()
        .from(acknowledgements)
        .where(eq(acknowledgements.enrollmentId, enrollmentId));
      return row;
    },

    /** Undefined when the enrollment has acknowledged already (a concurrent request). */
    async insertAcknowledgement(values: typeof acknowledgements.$inferInsert) {
      const [row] = await db
        .insert(acknowledgements)
        .values(values)
        .onConflictDoNothing({ target: acknowledgements.enrollmentId })
        .returning();
      return row;
    },
  };
}
