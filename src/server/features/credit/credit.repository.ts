import { asc, eq, isNotNull, or } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  acknowledgements,
  attestations,
  courseActivity,
  evaluationResponses,
  evaluationSubmissions,
  learnerLicences,
  signatures,
} from "./credit.table";

type ActivityValues = Partial<Omit<typeof courseActivity.$inferInsert, "courseId">>;

/** The credit claim's tables; every function runs on the executor it is given. */
export function createCreditRepository(db: Executor) {
  return {
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

    async licenceOf(userId: string) {
      const [row] = await db
        .select()
        .from(learnerLicences)
        .where(eq(learnerLicences.userId, userId));
      return row;
    },

    async saveLicence(userId: string, values: Omit<typeof learnerLicences.$inferInsert, "userId">) {
      const [row] = await db
        .insert(learnerLicences)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: learnerLicences.userId,
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

    async submissionOf(enrollmentId: string) {
      const [row] = await db
        .select()
        .from(evaluationSubmissions)
        .where(eq(evaluationSubmissions.enrollmentId, enrollmentId));
      return row;
    },

    async insertSubmission(values: typeof evaluationSubmissions.$inferInsert) {
      await db.insert(evaluationSubmissions).values(values);
    },

    async insertResponse(values: typeof evaluationResponses.$inferInsert) {
      await db.insert(evaluationResponses).values(values);
    },

    async responsesOf(courseId: string) {
      return db
        .select({ items: evaluationResponses.items, answers: evaluationResponses.answers })
        .from(evaluationResponses)
        .where(eq(evaluationResponses.courseId, courseId))
        .orderBy(asc(evaluationResponses.id));
    },

    async attestationOf(enrollmentId: string) {
      const [row] = await db
        .select()
        .from(attestations)
        .where(eq(attestations.enrollmentId, enrollmentId));
      return row;
    },

    async insertAttestation(values: typeof attestations.$inferInsert) {
      const [row] = await db.insert(attestations).values(values).returning();
      return row!;
    },
  };
}
