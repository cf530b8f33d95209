import { z } from "zod";
import {
  COMPLETION_STEP_EVENTS,
  COMPLETION_STEP_LABELS,
  type CompletionStepEventType,
  type CompletionStepKey,
} from "./credit";
import { creditAmountText } from "./credit-types";
import { calendarDateSchema } from "./dates";
import { MAX_PAGE_SIZE } from "./enrollments";

/**
 * Every event the audit trail records, with its label, grouped as an administrator looks for
 * them. An event's type is `<subject>.<verb in the past tense>`, in snake_case: the subject is
 * the thing that changed (course, module, exam, review, activity, evaluation, credit,
 * certificate, learner…), and a compound names what of it changed (`course.settings_updated`,
 * `exam.question_added`). Parts of a course are `added`, `updated`, `removed` and `reordered`;
 * things with a life of their own are `created` and `deleted`; settings are `<x>_updated`.
 */
const STEP_EVENTS = Object.assign({}, ...Object.values(COMPLETION_STEP_EVENTS)) as Record<
  CompletionStepEventType,
  string
>;

export const AUDIT_EVENT_GROUPS = [
  {
    label: "Courses",
    events: {
      "course.created": "Course created",
      "course.updated": "Course details edited",
      "course.settings_updated": "Completion and credit settings changed",
      "course.published": "Course published",
      "course.unpublished": "Course unpublished",
      "course.deleted": "Course deleted",
    },
  },
  {
    label: "Modules",
    events: {
      "module.added": "Module added",
      "module.updated": "Module edited",
      "module.removed": "Module removed",
      "course.modules_reordered": "Modules reordered",
    },
  },
  {
    label: "Final exam",
    events: {
      "exam.settings_updated": "Exam settings changed",
      "exam.question_added": "Exam question added",
      "exam.question_updated": "Exam question edited",
      "exam.question_removed": "Exam question removed",
      "exam.questions_reordered": "Exam questions reordered",
      "exam.questions_imported": "Exam questions imported",
    },
  },
  {
    label: "Review questions",
    events: {
      "review.question_added": "Review question added",
      "review.question_updated": "Review question edited",
      "review.question_removed": "Review question removed",
      "review.questions_reordered": "Review questions reordered",
      "review.questions_imported": "Review questions imported",
    },
  },
  {
    label: "Accreditation and credit",
    events: {
      "activity.updated": "Accreditation changed",
      "evaluation.form_updated": "Evaluation form changed",
      "course.step_form_updated": "Completion step form changed",
      "credit.settings_updated": "Credit settings changed",
      "credit.signature_updated": "Official's signature uploaded",
      "credit.signature_removed": "Official's signature removed",
      "credit_type.added": "Credit type added",
      "credit_type.updated": "Credit type edited",
      "credit_type.removed": "Credit type removed",
      "catalogue.body_added": "Accrediting body added to the catalogue",
      "catalogue.body_updated": "Catalogue accrediting body edited",
      "catalogue.body_removed": "Accrediting body removed from the catalogue",
      "catalogue.type_added": "Credit type added to the catalogue",
      "catalogue.type_updated": "Catalogue credit type edited",
      "catalogue.type_confirmed": "Catalogue credit type confirmed",
      "catalogue.type_merged": "Catalogue credit types merged",
      "catalogue.type_removed": "Credit type removed from the catalogue",
    },
  },
  {
    label: "Regulator reporting",
    events: {
      "reporting.settings_updated": "Regulator reporting changed",
      "regulator.deadline_updated": "Reporting deadline changed",
      "reporting.connection_updated": "Regulator connection changed",
      "cpe_monitor.submitted": "Completions sent to CPE Monitor",
      "report_file.generated": "Report file generated",
      "report_file.submitted": "Report file marked submitted",
    },
  },
  {
    label: "Learning and credit earned",
    events: {
      "enrollment.created": "Enrolled",
      "enrollment.removed": "Enrollment removed",
      // Each step's own events, in the order of the steps (contract/credit.ts).
      ...STEP_EVENTS,
      "package.attempt_reset": "Package attempt reset",
      "course.completed": "Course completed",
    },
  },
  {
    label: "Certificates",
    events: {
      "certificate.issued": "Certificate issued",
      "certificate.revoked": "Certificate revoked",
    },
  },
  {
    label: "Learner accounts",
    events: {
      "learner.restricted": "Learner restricted",
      "learner.unrestricted": "Learner unrestricted",
      "learner.deleted": "Learner deleted",
    },
  },
  {
    label: "Administrator sign-in",
    events: {
      "second_factor.added": "Second factor added",
      "second_factor.removed": "Second factor removed",
      "second_factor.recovery_codes_created": "Recovery codes created",
      "second_factor.passed": "Sign-in confirmed with a second factor",
      "second_factor.refused": "Second factor refused at sign-in",
      "second_factor.policy_updated": "Second factor requirement changed",
    },
  },
  {
    label: "Single sign-on",
    events: {
      "sign_on.signed_in": "Signed in through an identity provider",
      "sign_on.refused": "Sign-on refused",
      "sign_on.learner_created": "Learner created by sign-on",
      "identity_provider.created": "Identity provider added",
      "identity_provider.updated": "Identity provider changed",
      "identity_provider.deleted": "Identity provider removed",
    },
  },
] as const;

type EventsOf<G> = G extends { events: infer E } ? keyof E : never;
export type AuditEventType = EventsOf<(typeof AUDIT_EVENT_GROUPS)[number]>;

/** Each event type's label ("Course published"). */
export const AUDIT_EVENT_LABELS = Object.fromEntries(
  AUDIT_EVENT_GROUPS.flatMap((g) => Object.entries(g.events)),
) as Record<AuditEventType, string>;

export const AUDIT_EVENT_TYPES = Object.keys(AUDIT_EVENT_LABELS) as [
  AuditEventType,
  ...AuditEventType[],
];

/** A value an event's details may hold: JSON, hashed in its canonical form. */
export type AuditValue =
  | string
  | number
  | boolean
  | null
  | AuditValue[]
  | { [key: string]: AuditValue };
export type AuditDetails = Record<string, AuditValue>;

/**
 * One changed field of an edit. `from` and `to` are kept for short values (numbers, yes/no,
 * dates, names); long text and lists are named only, so the trail records that they changed
 * without copying them.
 */
export type AuditChange = {
  field: string;
  from?: string | number | boolean | null;
  to?: string | number | boolean | null;
};

/** A person filter: an email address (as administrators know people) or a user id. */
const personFilter = z.string().trim().max(320).optional();

/**
 * The audit trail's filters, shared by the CSV export (GET /api/audit) and the list on screen
 * (GET /api/audit/events): who acted (`actor`), what happened (`type`), in which course, for
 * which learner (`learner`, or `learnerId`), between two whole UTC days (inclusive). Filters
 * combine: an event must match each one given.
 */
export const auditQuerySchema = z.object({
  actor: personFilter,
  type: z.enum(AUDIT_EVENT_TYPES).optional(),
  courseId: z.string().trim().max(64).optional(),
  learner: personFilter,
  learnerId: z.string().trim().max(64).optional(),
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const AUDIT_PAGE_SIZE = 25;

export const auditEventsQuerySchema = auditQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
  cursor: z.string().max(100).optional(),
});
export type AuditEventsQuery = z.input<typeof auditEventsQuerySchema>;

const auditValueSchema: z.ZodType<AuditValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(auditValueSchema),
    z.record(z.string(), auditValueSchema),
  ]),
);

/** One event as the list shows it: who, what, for whom, in which course, and a sentence. */
export const auditEventSchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  type: z.string(),
  /** What happened, in words ("Changed the title from “A” to “B”"). */
  summary: z.string(),
  /** Null when the system acted (a background job). Names are today's, or those recorded. */
  actor: z
    .object({
      id: z.string(),
      role: z.string().nullable(),
      name: z.string().nullable(),
      email: z.string().nullable(),
    })
    .nullable(),
  learner: z
    .object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() })
    .nullable(),
  course: z.object({ id: z.string(), title: z.string().nullable() }).nullable(),
  moduleId: z.string().nullable(),
  details: z.record(z.string(), auditValueSchema),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** GET /api/audit/events: a page of events, newest first, and the next page's cursor. */
export const auditEventsPageSchema = z.object({
  events: z.array(auditEventSchema),
  nextCursor: z.string().nullable(),
});
export type AuditEventsPage = z.infer<typeof auditEventsPageSchema>;

/** How a field reads in a sentence; a field without one reads as its words ("minSeatSeconds" → "min seat seconds"). */
const FIELD_NAMES: Record<string, string> = {
  title: "title",
  description: "description",
  category: "category",
  duration: "duration",
  thumbnail: "thumbnail",
  videoUrl: "video",
  completionPolicy: "completion rule",
  minWatchPercent: "minimum watched share",
  minSeatSeconds: "minimum seat time",
  creditHours: "credit amount",
  creditType: "credit type",
  accreditingBody: "accrediting body",
  providerNumber: "provider number",
  enabled: "exam on",
  questionCount: "questions per attempt",
  passMark: "pass mark",
  maxAttempts: "attempts allowed",
  timeLimitMinutes: "time limit",
  revealAnswers: "answers revealed",
  reviewRequired: "review required",
  evaluationItems: "evaluation questions",
  fieldsOfStudy: "fields of study",
  signatureId: "signature",
};

export function auditFieldName(field: string): string {
  return FIELD_NAMES[field] ?? field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

const quoted = (value: unknown) =>
  value === null || value === undefined || value === ""
    ? "none"
    : typeof value === "string"
      ? `“${value}”`
      : typeof value === "boolean"
        ? value
          ? "yes"
          : "no"
        : String(value);

function changeText(change: AuditChange): string {
  const name = auditFieldName(change.field);
  if (!("from" in change) && !("to" in change)) return name;
  return `${name} from ${quoted(change.from)} to ${quoted(change.to)}`;
}

function changesOf(details: Record<string, unknown>): AuditChange[] {
  const list = details.changes;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is AuditChange =>
      typeof c === "object" && c !== null && typeof (c as AuditChange).field === "string",
  );
}

const text = (details: Record<string, unknown>, key: string) =>
  typeof details[key] === "string" ? (details[key] as string) : undefined;
const num = (details: Record<string, unknown>, key: string) =>
  typeof details[key] === "number" ? (details[key] as number) : undefined;

/** "Changed the exam settings: pass mark from 70 to 80; time limit from none to 30" */
function changedSentence(what: string, details: Record<string, unknown>): string {
  const changes = changesOf(details);
  return changes.length ? `${what}: ${changes.map(changeText).join("; ")}` : what;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What an event says, in words, from its type and details (the actor is shown beside it). */
/** How a sentence names the proof of a sign-in's second step. */
const FACTOR_WORDS: Record<string, string> = {
  passkey: "a passkey",
  totp: "an authenticator app code",
  recovery: "a recovery code",
};

export function describeAuditEvent(event: { type: string; details: Record<string, unknown> }) {
  const d = event.details;
  const title = text(d, "courseTitle");
  const module = text(d, "moduleTitle");
  const question = text(d, "questionText");
  switch (event.type) {
    case "course.created":
      return `Created the course${title ? ` ${quoted(title)}` : ""}`;
    case "course.updated":
      return changedSentence("Edited the course", d);
    case "course.settings_updated":
      return changedSentence("Changed the completion and credit settings", d);
    case "course.published": {
      // The reason the administrator gave to publish more credit than the content supports.
      const reason = text(d, "creditLengthReason");
      return reason
        ? `Published the course with more credit than its content's length supports: ${quoted(reason)}`
        : "Published the course";
    }
    case "course.unpublished":
      return "Took the course back to draft";
    case "course.deleted":
      return `Deleted the course${title ? ` ${quoted(title)}` : ""}`;
    case "course.modules_reordered": {
      const titles = Array.isArray(d.titles) ? d.titles.map(String) : [];
      return titles.length
        ? `Reordered the modules: ${titles.map((t, i) => `${i + 1}. ${t}`).join(", ")}`
        : "Reordered the modules";
    }
    case "module.added":
      return `Added the module${module ? ` ${quoted(module)}` : ""}`;
    case "module.updated":
      return changedSentence(`Edited the module${module ? ` ${quoted(module)}` : ""}`, d);
    case "module.removed":
      return `Removed the module${module ? ` ${quoted(module)}` : ""}`;
    case "exam.settings_updated":
      return changedSentence("Changed the exam settings", d);
    case "exam.question_added":
    case "review.question_added":
    case "exam.question_updated":
    case "review.question_updated":
    case "exam.question_removed":
    case "review.question_removed": {
      const verb = event.type.endsWith("added")
        ? "Added"
        : event.type.endsWith("removed")
          ? "Removed"
          : "Edited";
      const kind = event.type.startsWith("exam") ? "an exam question" : "a review question";
      const where = module ? ` to ${quoted(module)}` : "";
      return `${verb} ${kind}${verb === "Added" ? where : ""}${question ? `: ${quoted(question)}` : ""}`;
    }
    case "exam.questions_reordered":
      return "Reordered the exam questions";
    case "review.questions_reordered":
      return `Reordered the review questions${module ? ` of ${quoted(module)}` : ""}`;
    case "exam.questions_imported":
    case "review.questions_imported": {
      const count = num(d, "count") ?? 0;
      const kind = event.type.startsWith("exam") ? "exam question" : "review question";
      return `Imported ${plural(count, kind, `${kind}s`)} from a file`;
    }
    case "activity.updated":
      return changedSentence("Changed the accreditation", d);
    case "evaluation.form_updated":
      return "Changed the evaluation form";
    case "course.step_form_updated": {
      const step = text(d, "step");
      const label =
        step && step in COMPLETION_STEP_LABELS
          ? COMPLETION_STEP_LABELS[step as CompletionStepKey]
          : "completion step";
      return changedSentence(`Changed the ${label.toLowerCase()} form`, d);
    }
    case "credit.settings_updated":
      return changedSentence("Changed the credit settings", d);
    case "credit.signature_updated":
      return "Uploaded the responsible official's signature";
    case "credit.signature_removed":
      return "Removed the responsible official's signature";
    case "credit_type.added":
    case "credit_type.updated":
    case "credit_type.removed": {
      const name = text(d, "creditName");
      const verb = event.type.endsWith("added")
        ? "Added"
        : event.type.endsWith("removed")
          ? "Removed"
          : "Edited";
      return changedSentence(`${verb} the credit type${name ? ` ${quoted(name)}` : ""}`, d);
    }
    case "reporting.settings_updated": {
      // Each change names a credit type as the course writes it, and its regulator.
      const changes = changesOf(d).map(
        (c) => `${c.field} from ${quoted(c.from)} to ${quoted(c.to)}`,
      );
      return `Changed the regulator reporting${changes.length ? `: ${changes.join("; ")}` : ""}`;
    }
    case "regulator.deadline_updated": {
      const days = num(d, "deadlineDays");
      const name = text(d, "regulatorName");
      return `Set the reporting deadline${name ? ` of ${name}` : ""}${days === undefined ? "" : ` to ${plural(days, "day", "days")}`}`;
    }
    case "reporting.connection_updated": {
      const name = text(d, "regulatorName");
      return `Changed how Credo reaches ${name ?? "the regulator"}`;
    }
    case "cpe_monitor.submitted": {
      const accepted = num(d, "accepted") ?? 0;
      const refused = num(d, "refused") ?? 0;
      const waiting = num(d, "waiting") ?? 0;
      return `Sent completions to CPE Monitor: ${accepted} accepted, ${refused} refused, ${waiting} waiting`;
    }
    case "report_file.generated":
    case "report_file.submitted": {
      const file = text(d, "fileName");
      const rows = num(d, "rowCount");
      const verb = event.type.endsWith("generated") ? "Generated" : "Marked as submitted";
      return `${verb} the report file${file ? ` ${file}` : ""}${rows === undefined ? "" : ` (${plural(rows, "row", "rows")})`}`;
    }
    case "enrollment.created":
      return "Enrolled the learner";
    case "enrollment.removed":
      return "Removed the learner's enrollment";
    case "activity.acknowledged":
      return "Acknowledged the activity page";
    case "module.completed": {
      const progress = num(d, "progress");
      return `Completed a module${progress === undefined ? "" : ` (progress ${progress}%)`}`;
    }
    case "review.answered": {
      const answered = num(d, "answered");
      const correct = num(d, "correct");
      return answered === undefined
        ? "Answered the review questions"
        : `Answered ${plural(answered, "review question", "review questions")}, ${correct ?? 0} right`;
    }
    case "exam.attempt_started":
      return `Started exam attempt ${num(d, "number") ?? ""}`.trimEnd();
    case "exam.attempt_submitted": {
      const score = num(d, "score");
      const passed = d.passed === true ? "passed" : "not passed";
      return `Submitted exam attempt ${num(d, "number") ?? ""}${score === undefined ? "" : `: ${score}%, ${passed}`}`;
    }
    case "exam.extra_attempt_granted":
      return "Granted another exam attempt";
    case "evaluation.submitted":
      return "Submitted the evaluation";
    case "attestation.signed": {
      // Each credit with its type ("1.25 contact hours"): amounts of types never add up.
      const claims = Array.isArray(d.claims)
        ? d.claims.flatMap((c) => {
            const claim = c as { name?: unknown; amount?: unknown };
            return typeof claim.name === "string" && typeof claim.amount === "number"
              ? [creditAmountText(claim.amount, claim.name)]
              : [];
          })
        : [];
      const claimed = num(d, "creditsClaimed");
      const credit = claims.length
        ? claims.join(" and ")
        : claimed === undefined
          ? ""
          : `${plural(claimed, "credit", "credits")}`;
      return `Signed the attestation${credit ? `, claiming ${credit}` : ""}`;
    }
    case "package.attempt_reset": {
      const number = num(d, "attemptNumber");
      return `Reset the learner's attempt${number === undefined ? "" : ` ${number}`}${module ? ` at ${quoted(module)}` : ""}`;
    }
    case "course.completed":
      return "Completed the course";
    case "certificate.issued":
      return `Issued certificate${text(d, "code") ? ` ${text(d, "code")}` : ""}`;
    case "certificate.revoked": {
      const reason = text(d, "reason");
      return `Revoked certificate${text(d, "code") ? ` ${text(d, "code")}` : ""}${reason ? `: ${reason}` : ""}`;
    }
    case "learner.restricted":
      return "Restricted the learner";
    case "learner.unrestricted":
      return "Lifted the learner's restriction";
    case "learner.deleted":
      return "Deleted the learner";
    case "second_factor.added":
    case "second_factor.removed": {
      const verb = event.type === "second_factor.added" ? "Added" : "Removed";
      const name = text(d, "name");
      return d.method === "totp"
        ? `${verb} an authenticator app`
        : `${verb} the passkey${name ? ` ${quoted(name)}` : ""}`;
    }
    case "second_factor.passed":
      return `Confirmed a sign-in with ${FACTOR_WORDS[String(d.method)] ?? "a second factor"}`;
    case "second_factor.refused": {
      const reason = text(d, "reason");
      return `Refused a sign-in's ${FACTOR_WORDS[String(d.method)] ?? "second factor"}${reason ? `: ${reason}` : ""}`;
    }
    case "second_factor.policy_updated":
      return d.required
        ? "Required a second factor of every administrator"
        : "Stopped requiring a second factor of administrators";
    case "sign_on.signed_in":
      return `Signed in through ${text(d, "providerName") ?? "an identity provider"}`;
    case "sign_on.refused":
      return `Refused a sign-on through ${text(d, "providerName") ?? "an identity provider"}: ${text(d, "reason") ?? "unknown reason"}${text(d, "detail") ? ` (${text(d, "detail")})` : ""}`;
    case "sign_on.learner_created":
      return `Created the learner at their first sign-on through ${text(d, "providerName") ?? "an identity provider"}`;
    case "identity_provider.created":
    case "identity_provider.updated":
    case "identity_provider.deleted": {
      const verb = event.type.endsWith("created")
        ? "Added"
        : event.type.endsWith("deleted")
          ? "Removed"
          : "Changed";
      const name = text(d, "providerName");
      return `${verb} the identity provider${name ? ` ${quoted(name)}` : ""}`;
    }
    default:
      return AUDIT_EVENT_LABELS[event.type as AuditEventType] ?? event.type;
  }
}
