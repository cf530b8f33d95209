import { QueryBuilder } from "drizzle-orm/pg-core";
import { certificates } from "./certificates.table";

/** What a certificate keeps of the course it completed, for its credential's achievement. */
export type { CertificateAchievement } from "./certificates.table";

/**
 * Every certificate as the credentials and regulator reports read it: which enrollment and
 * course it completed, when, and whether it was revoked. A subquery joined in their own
 * statement; PostgreSQL reads it as the certificates table itself.
 */
export const certificateRecords = new QueryBuilder()
  .select({
    id: certificates.id,
    enrollmentId: certificates.enrollmentId,
    courseId: certificates.courseId,
    completedAt: certificates.completedAt,
    revokedAt: certificates.revokedAt,
  })
  .from(certificates)
  .as("certificate_records");
