import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import type { ActivityDetails, RefusedRow } from "../../../contract";
import { courseCreditTypes } from "../../catalogue/courses/course-credit.table";
import { newId } from "../../db/ids";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * The regulators a course's credit type reports to (migration 0024), with each one's
 * identifier of the activity: the PARS activity ID, the CE Broker course tracking number
 * (with the provider's tracking number) or the ACPE UAN. For PARS, also what its activity
 * record says of the activity (migration 0025). Goes with its credit type.
 */
export const creditTypeRegulators = pgTable(
  "credit_type_regulators",
  {
    creditTypeId: text("credit_type_id")
      .notNull()
      .references(() => courseCreditTypes.id, { onDelete: "cascade" }),
    regulator: text("regulator").notNull(),
    activityId: text("activity_id").notNull().default(""),
    providerId: text("provider_id").notNull().default(""),
    /** PARS: the activity format's code; "" until set. */
    activityFormat: text("activity_format").notNull().default(""),
    /** PARS: "direct" or "joint"; "" until set. */
    providership: text("providership").notNull().default(""),
    /** PARS: whether the activity received commercial support; null until said. */
    commercialSupport: boolean("commercial_support"),
    /**
     * What the upload says of the activity besides its identifier (migration 0045): the
     * provider's own activity code, PARS's location, competencies, supporters and MOC, CE
     * Broker's subject area.
     */
    details: jsonb("details").$type<Partial<ActivityDetails>>().notNull().default({}),
  },
  (t) => [
    primaryKey({ columns: [t.creditTypeId, t.regulator] }),
    check(
      "credit_type_regulators_regulator_check",
      sql`${t.regulator} in ('pars', 'ce_broker', 'cpe_monitor')`,
    ),
    check(
      "credit_type_regulators_providership_check",
      sql`${t.providership} in ('', 'direct', 'joint')`,
    ),
  ],
);

/**
 * Each report file generated, kept byte for byte so any earlier file can be downloaded again
 * exactly as it was made, with the rows the format refused. A file is marked submitted once
 * an administrator has uploaded it to the regulator. Like the credit records it reports, a
 * file outlives its course.
 */
export const reportFiles = pgTable(
  "report_files",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    regulator: text("regulator").notNull(),
    /** Learners' completions, or the PARS activity record (migration 0025). */
    kind: text("kind").notNull().default("learners"),
    courseId: text("course_id"),
    courseTitle: text("course_title").notNull(),
    fromDate: date("from_date", { mode: "string" }).notNull(),
    toDate: date("to_date", { mode: "string" }).notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    bytes: bytea("bytes").notNull(),
    rowCount: integer("row_count").notNull(),
    refused: jsonb("refused").$type<RefusedRow[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: text("created_by"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    submittedBy: text("submitted_by"),
  },
  (t) => [
    index("report_files_regulator_idx").on(t.regulator, t.createdAt),
    check(
      "report_files_regulator_check",
      sql`${t.regulator} in ('pars', 'ce_broker', 'cpe_monitor')`,
    ),
    check("report_files_kind_check", sql`${t.kind} in ('learners', 'activities')`),
  ],
);

/**
 * The claims a file holds, each with the fingerprint of its row as written: a claim is
 * reported while a submitted file holds it added with the fingerprint it has now, and goes
 * into the next file when it is new or its row changed since. A PARS file also withdraws
 * rows (migration 0045): a changed claim's earlier row is deleted before its new row is
 * added, and a claim no longer valid has its row deleted; each row is kept as written so
 * the file that withdraws it can name it as PARS holds it.
 */
export const reportFileClaims = pgTable(
  "report_file_claims",
  {
    fileId: text("file_id")
      .notNull()
      .references(() => reportFiles.id, { onDelete: "cascade" }),
    /** The claim: its attestation and position (attestation_credits' key). */
    attestationId: text("attestation_id").notNull(),
    position: integer("position").notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** "add" or "delete": the PARS learner template's record action. */
    action: text("action").notNull().default("add"),
    /** The row's values as written; null in files made before rows were kept. */
    row: jsonb("row").$type<string[]>(),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.attestationId, t.position, t.action] }),
    check("report_file_claims_action_check", sql`${t.action} in ('add', 'delete')`),
    index("report_file_claims_claim_idx").on(t.attestationId, t.position),
  ],
);

/**
 * Each regulator's deadline for reporting a completion (no row means the default), and how
 * Credo reaches it (migration 0045): CE Broker's parent provider and CPE Monitor's provider
 * number and service address, with the credential (CE Broker's upload key, CPE Monitor's
 * password) sealed, never answered back.
 */
export const regulatorSettings = pgTable(
  "regulator_settings",
  {
    regulator: text("regulator").primaryKey(),
    deadlineDays: integer("deadline_days").notNull(),
    connection: jsonb("connection").$type<Record<string, string>>().notNull().default({}),
    sealedSecret: text("sealed_secret"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("regulator_settings_days_check", sql`${t.deadlineDays} between 1 and 365`),
    check(
      "regulator_settings_regulator_check",
      sql`${t.regulator} in ('pars', 'ce_broker', 'cpe_monitor')`,
    ),
  ],
);

/**
 * Each claim sent to CPE Monitor's web service (migration 0045), with the service's answer:
 * accepted, refused with its message, or waiting to be sent again while the service cannot
 * be reached. The fingerprint is of the values sent: a claim is reported while its accepted
 * submission holds the values it has now.
 */
export const cpeMonitorSubmissions = pgTable(
  "cpe_monitor_submissions",
  {
    attestationId: text("attestation_id").notNull(),
    position: integer("position").notNull(),
    courseId: text("course_id"),
    fingerprint: text("fingerprint").notNull(),
    status: text("status").notNull(),
    message: text("message").notNull().default(""),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull(),
    submittedBy: text("submitted_by"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /**
     * While one instance sends the claim (until then): no other sends it meanwhile. A send
     * cut off by the end of its process frees it when this passes.
     */
    sendingUntil: timestamp("sending_until", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.attestationId, t.position] }),
    index("cpe_monitor_submissions_due_idx").on(t.status, t.nextAttemptAt),
    check(
      "cpe_monitor_submissions_status_check",
      sql`${t.status} in ('accepted', 'refused', 'waiting')`,
    ),
  ],
);

/**
 * The weekly digest of overdue claims sent to administrators: one row per week, taken before
 * sending, so however many instances sweep it goes out once. A week whose digest did not
 * reach every administrator (the mail server refused it) is taken again later, a few times
 * (migration 0053): `sentAt` is set once everyone has it.
 */
export const reportingDigests = pgTable("reporting_digests", {
  week: date("week", { mode: "string" }).primaryKey(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
  attempts: integer("attempts").notNull().default(1),
});

/** The administrators a week's digest reached: a retry sends only to the others. */
export const reportingDigestSends = pgTable(
  "reporting_digest_sends",
  {
    week: date("week", { mode: "string" })
      .notNull()
      .references(() => reportingDigests.week),
    userId: text("user_id").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.week, t.userId] })],
);

export type ReportFileRow = typeof reportFiles.$inferSelect;
