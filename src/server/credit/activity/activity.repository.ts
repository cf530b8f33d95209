import { eq, isNotNull, or } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { acknowledgements, courseActivity, signatures } from "./activity.table";

/** The columns of a course's activity a save may name; the others keep their value. */
export type ActivityValues = Partial<Omit<typeof courseActivity.$inferInsert, "courseId">>;

/** The course's activity, its officials' signatures and the acknowledgements; every function runs on the executor it is given. */
export function createActivityRepository(db: Executor) {
  return {
    async insertSignature(contentType: string, bytes: Buffer) {
      const [row] = await db
        .insert(signatures)
        .values({ contentType, bytes })
        .returning({ id: signatures.id });
      return row!.id;
    },

    async signatureOf(id: string) {
      const [row] = await db.select().from(signatures).where(eq(signatures.id, id));
      return row;
    },

    async activityOf(courseId: string) {
      const [row] = await db
        .select()
        .from(courseActivity)
        .where(eq(courseActivity.courseId, courseId));
      return row;
    },

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

    /**
     * The course's row locked for the rest of the transaction, created with the defaults
     * when missing: an edit compares against what was there (the defaults, at first).
     */
    async lockActivity(courseId: string) {
      await db.insert(courseActivity).values({ courseId }).onConflictDoNothing();
      const [row] = await db
        .select()
        .from(courseActivity)
        .where(eq(courseActivity.courseId, courseId))
        .for("update");
      return row!;
    },

    /** Creates the course's row with the defaults for everything not named. */
    async saveActivity(courseId: string, values: ActivityValues) {
      const [row] = await db
        .insert(courseActivity)
        .values({ courseId, ...values })
        .onConflictDoUpdate({
          target: courseActivity.courseId,
          set: { ...values, updatedAt: new Date() },
        })
        .returning();
      return row!;
    },

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
