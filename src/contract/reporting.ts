import { z } from "zod";
import { attestBodySchema } from "./credit";
import { calendarDateSchema, DATE_RANGE_REVERSED } from "./dates";
import { REPORT_FILE_KINDS, type Regulator, regulatorSchema } from "./reporting-activity";

/**
 * Regulator reporting: each learner's completion sent to the tracking system the licensing
 * boards read. ACCME PARS for physicians' CME and MOC, CE Broker for nurses and other
 * professions, NABP CPE Monitor (through ACPE) for pharmacists. A course's credit type names
 * the regulators it reports to with their identifier for the activity; a learner claiming
 * such a type gives the identifiers that regulator needs, and they are copied into the claim.
 * Here: the regulators, their deadlines, and the files and submissions that report the
 * claims; the identifiers are in regulator-ids.ts, what a course reports in
 * course-reporting.ts.
 */

export const REGULATOR_NAMES: Record<Regulator, string> = {
  pars: "ACCME PARS",
  ce_broker: "CE Broker",
  cpe_monitor: "NABP CPE Monitor",
};

/**
 * How long a claim may wait before it is reported, by default: ACCME asks for learner
 * completions within 30 days; ACPE gives providers 60 days to send CPE Monitor its data.
 * Each is set per regulator by the administrators.
 */
export const DEFAULT_DEADLINE_DAYS: Record<Regulator, number> = {
  pars: 30,
  ce_broker: 30,
  cpe_monitor: 60,
};
export const DEADLINE_DAYS_MAX = 365;

/** POST /api/admin/reports/regulators/{regulator}/files: one file per course and date range. */
export const reportGenerateBodySchema = z
  .strictObject({
    courseId: z.string().min(1).max(64),
    /** The first and last day of completion included (whole UTC days). */
    from: calendarDateSchema,
    to: calendarDateSchema,
  })
  .refine((b) => b.from <= b.to, {
    path: ["to"],
    message: DATE_RANGE_REVERSED,
  });
export type ReportGenerateBody = z.infer<typeof reportGenerateBodySchema>;

/**
 * A row the format's own rules refuse: listed apart, never silently dropped. A learner's
 * claim, or (a PARS activity file) a credit type's activity record, named in `activity`.
 */
export const refusedRowSchema = z.object({
  /** The claim's key, or `activity:<credit type id>`. */
  claimKey: z.string(),
  learnerName: z.string(),
  completedOn: z.string(),
  reason: z.string(),
  /** The activity record refused: the credit type's name and its PARS activity ID. */
  activity: z.string().optional(),
});
export type RefusedRow = z.infer<typeof refusedRowSchema>;

export const reportFileSchema = z.object({
  id: z.string(),
  regulator: regulatorSchema,
  /** Learners' completions, or the PARS activity record. */
  kind: z.enum(REPORT_FILE_KINDS),
  courseId: z.string().nullable(),
  courseTitle: z.string(),
  from: z.string(),
  to: z.string(),
  fileName: z.string(),
  rowCount: z.number().int(),
  refused: z.array(refusedRowSchema),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
});
export type ReportFile = z.infer<typeof reportFileSchema>;

export const reportFilesQuerySchema = z.object({
  courseId: z.string().min(1).max(64).optional(),
});

export const REPORT_CLAIM_STATUSES = ["reported", "changed", "not_reported"] as const;
export const REPORT_CLAIM_STATUS_LABELS: Record<(typeof REPORT_CLAIM_STATUSES)[number], string> = {
  reported: "Reported",
  changed: "Changed since reported",
  not_reported: "Not yet reported",
};

/** CPE Monitor's answer to a claim submitted to its service. */
export const CPE_MONITOR_STATUSES = ["accepted", "refused", "waiting"] as const;
export const CPE_MONITOR_STATUS_LABELS: Record<(typeof CPE_MONITOR_STATUSES)[number], string> = {
  accepted: "Accepted by CPE Monitor",
  refused: "Refused by CPE Monitor",
  waiting: "Waiting: CPE Monitor could not be reached",
};
export const cpeMonitorSubmissionSchema = z.object({
  status: z.enum(CPE_MONITOR_STATUSES),
  /** The service's message when it refused, or why it could not be reached. */
  message: z.string(),
  attempts: z.number().int(),
  /** When a waiting submission is sent again. */
  nextAttemptAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
});
export type CpeMonitorSubmission = z.infer<typeof cpeMonitorSubmissionSchema>;

/** One completed claim of a reported credit type, and where it stands with the regulator. */
export const reportClaimSchema = z.object({
  key: z.string(),
  learnerName: z.string(),
  courseId: z.string().nullable(),
  courseTitle: z.string(),
  creditName: z.string(),
  amount: z.number(),
  completedOn: z.string(),
  status: z.enum(REPORT_CLAIM_STATUSES),
  /** The submitted file that holds it as it stands (or last held it). */
  reportedOn: z.string().nullable(),
  fileId: z.string().nullable(),
  fileName: z.string().nullable(),
  /** Days since completion while not reported; null once reported. */
  waitingDays: z.number().int().nullable(),
  /** Waiting longer than the regulator's deadline. */
  overdue: z.boolean(),
  /** Why the format would refuse it now; null when it can be reported. */
  problem: z.string().nullable(),
  /** The learner's consent to the reporting, as agreed; null for a claim made before it was asked. */
  consent: z.string().nullable(),
  /** CPE Monitor: the service's answer to the claim as last sent; null until sent and for the others. */
  submission: cpeMonitorSubmissionSchema.nullable(),
});
export type ReportClaim = z.infer<typeof reportClaimSchema>;

export const reportClaimsQuerySchema = z.object({
  courseId: z.string().min(1).max(64).optional(),
});

/** GET /api/admin/reports/regulators: each regulator, its deadline and what waits for it. */
export const regulatorOverviewSchema = z.object({
  regulator: regulatorSchema,
  name: z.string(),
  deadlineDays: z.number().int(),
  /** Completed claims not reported as they stand. */
  waiting: z.number().int(),
  /** Of those, waiting longer than the deadline. */
  overdue: z.number().int(),
  /** The courses whose credit types report to it. */
  courses: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type RegulatorOverview = z.infer<typeof regulatorOverviewSchema>;

/** PUT /api/admin/reports/regulators/{regulator}: the regulator's deadline. */
export const regulatorSettingsBodySchema = z.strictObject({
  deadlineDays: z
    .number({ error: "The deadline must be a number of days" })
    .int("The deadline must be whole days")
    .min(1, "The deadline must be at least 1 day")
    .max(DEADLINE_DAYS_MAX, `The deadline must be at most ${DEADLINE_DAYS_MAX} days`),
});

/** Where CPE Monitor's activity service answers, as the public integrations call it. */
export const CPE_MONITOR_SERVICE_URL =
  "https://cpemonitor.acpe-accredit.org/service/cpemonitorservice.asmx";

/**
 * PUT /api/admin/reports/regulators/{regulator}/connection: how Credo reaches the regulator.
 * CE Broker: the parent provider ID and upload key of the roster; CPE Monitor: the ACPE
 * provider number, the service's user name and password and its address. A credential left
 * out keeps the one saved; it is never answered back.
 */
export const regulatorConnectionBodySchema = z.strictObject({
  parentProviderId: z.string().trim().max(20).optional(),
  uploadKey: z.string().trim().max(200).optional(),
  providerNumber: z.string().trim().max(20).optional(),
  username: z.string().trim().max(100).optional(),
  password: z.string().max(200).optional(),
  serviceUrl: z.string().trim().max(300).optional(),
});
export type RegulatorConnectionBody = z.infer<typeof regulatorConnectionBodySchema>;
export const regulatorConnectionSchema = z.object({
  regulator: regulatorSchema,
  parentProviderId: z.string(),
  providerNumber: z.string(),
  username: z.string(),
  serviceUrl: z.string(),
  /** Whether the upload key (CE Broker) or password (CPE Monitor) is saved. */
  secretSet: z.boolean(),
});
export type RegulatorConnection = z.infer<typeof regulatorConnectionSchema>;

/** POST /api/admin/reports/regulators/cpe_monitor/submissions: the claims to send. */
export const cpeMonitorSubmitBodySchema = z.strictObject({
  courseId: z.string().min(1).max(64),
  from: calendarDateSchema,
  to: calendarDateSchema,
});
export const cpeMonitorSubmitResultSchema = z.object({
  accepted: z.number().int(),
  refused: z.number().int(),
  waiting: z.number().int(),
  /** Claims not sent: the layout refuses them (the reason given). */
  notSent: z.array(refusedRowSchema),
});
export type CpeMonitorSubmitResult = z.infer<typeof cpeMonitorSubmitResultSchema>;

/** The regulators' names as a sentence lists them: "ACCME PARS and CE Broker". */
export const regulatorNames = (regulators: readonly Regulator[]) => {
  const names = regulators.map((r) => REGULATOR_NAMES[r]);
  return names.length > 1
    ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`
    : (names[0] ?? "");
};

/**
 * What a learner claiming credit that is reported agrees to, word for word: the provider
 * reports this completion to the regulators named, with the identifiers the learner gave.
 * The claim keeps it.
 */
export const reportingConsentStatement = (provider: string, regulators: readonly Regulator[]) =>
  `I agree that ${provider} reports my completion of this activity to ${regulatorNames(regulators)} with the identifiers I have given.`;

/**
 * POST /api/courses/{id}/attest, with the learner's consent to the reporting: required when a
 * claimed credit type reports to a regulator, and ignored otherwise.
 */
export const attestWithConsentBodySchema = attestBodySchema.safeExtend({
  reportingConsent: z.boolean().optional(),
});
export type AttestWithConsentBody = z.infer<typeof attestWithConsentBodySchema>;

export const REPORTING_MESSAGES = {
  consentNeeded: (regulators: readonly Regulator[]) =>
    `Your credit is reported to ${regulatorNames(regulators)}: agree to the reporting before claiming it.`,
  idsNeeded: (regulator: Regulator, missing: string[]) =>
    `Your credit is reported to ${REGULATOR_NAMES[regulator]}: add your ${missing.join(", ")} first.`,
  activityIdMissing: (creditName: string, regulator: Regulator, missing: string[]) =>
    `${creditName} reports to ${REGULATOR_NAMES[regulator]}: enter its ${missing.join(" and ")} under Reporting.`,
  attestationNeeded:
    "This course reports credit to a regulator: turn on the attestation, where learners claim their credit.",
  notReporting: (regulator: Regulator) =>
    `This course reports no credit to ${REGULATOR_NAMES[regulator]}.`,
  nothingToReport:
    "Nothing new to report for this course and range: every claim is reported or refused.",
  alreadySubmitted: "This file is already marked as submitted.",
  fileNotFound: "Report file not found.",
  creditTypeNotFound: "A credit type named is not one of this course's.",
  submittedByService:
    "CPE Monitor takes completions by its web service: submit them from the CPE Monitor tab.",
  connectionMissing: (missing: string[]) =>
    `Enter the ${missing.join(", ")} under Connection settings on the Reporting page first.`,
  secretsKeyMissing:
    "Credentials cannot be kept: set SECRETS_KEY (32 bytes in base64) and restart the portal.",
} as const;
