import { z } from "zod";
import { calendarDateSchema, DATE_RANGE_REVERSED } from "./dates";
import {
  CERTIFYING_BOARDS,
  IDENTIFIER_MESSAGES,
  identifierText,
  isValidCeBrokerCourse,
  isValidCeBrokerProvider,
  isValidParsActivityId,
  isValidUan,
  US_STATES,
} from "./regulator-ids";
import { REGULATOR_NAMES } from "./reporting";
import {
  PARS_ACTIVITY_FORMATS,
  PARS_COMPETENCIES,
  PARS_LIVE_FORMATS,
  PROVIDERSHIPS,
  REGULATORS,
  type Regulator,
  regulatorSchema,
} from "./reporting-activity";

/**
 * What a course reports: for each of its credit types, the regulators it reports to with
 * their identifiers of the activity, and for PARS the activity record's details
 * (PUT /api/courses/{id}/reporting).
 */

/** The regulator's identifier of the activity, as each calls it. */
export const ACTIVITY_ID_LABELS: Record<Regulator, string> = {
  pars: "PARS activity ID",
  ce_broker: "CE Broker course tracking number",
  cpe_monitor: "ACPE UAN",
};
export const CE_BROKER_PROVIDER_LABEL = "CE Broker provider tracking number";

const ACTIVITY_ID_RULES: Record<Regulator, [(v: string) => boolean, string]> = {
  pars: [isValidParsActivityId, IDENTIFIER_MESSAGES.parsActivityId],
  ce_broker: [isValidCeBrokerCourse, IDENTIFIER_MESSAGES.ceBrokerCourse],
  cpe_monitor: [isValidUan, IDENTIFIER_MESSAGES.uan],
};

/** One regulator a credit type reports to, with its identifiers of the activity. */
export const regulatorActivitySchema = z.object({
  regulator: regulatorSchema,
  /** The PARS activity ID, the CE Broker course tracking number or the ACPE UAN; "" until known. */
  activityId: z.string(),
  /** CE Broker's provider tracking number; "" for the others. */
  providerId: z.string(),
  /** PARS: the activity format's code (PARS_ACTIVITY_FORMATS); "" until set and for the others. */
  activityFormat: z.string(),
  /** PARS: "direct" or "joint"; "" until set and for the others. */
  providership: z.string(),
  /** PARS: whether the activity received commercial support; null until said and for the others. */
  commercialSupport: z.boolean().nullable(),
  details: z.lazy(() => activityDetailsSchema),
});
export type RegulatorActivity = z.infer<typeof regulatorActivitySchema>;
/** The identifiers of the activity a learner's row is written with. */
export type RegulatorActivityIds = Pick<
  RegulatorActivity,
  "regulator" | "activityId" | "providerId"
>;

/**
 * What a regulator's upload says of the activity besides its identifier. The provider's own
 * activity code: PARS's Provider Activity ID (the key PARS updates an activity by) and CE
 * Broker's provider course code. For PARS also where a live activity is held, its
 * competencies and commercial supporters, and, when it reports MOC, the certifying board and
 * the board's credit type; for CE Broker, the subject area its partial credit is awarded in.
 */
export const activityDetailsSchema = z.object({
  providerCode: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  competencies: z.array(z.string()),
  supporters: z.array(z.object({ source: z.string(), amount: z.number() })),
  mocBoard: z.string(),
  mocCreditType: z.string(),
  subjectArea: z.string(),
  /**
   * CPE Monitor: the first and last day of participation the activity is registered for with
   * ACPE (YYYY-MM-DD, "" until set). CPE Monitor refuses a completion dated outside them.
   */
  registeredFrom: z.string(),
  registeredTo: z.string(),
});
export type ActivityDetails = z.infer<typeof activityDetailsSchema>;
export const EMPTY_ACTIVITY_DETAILS: ActivityDetails = {
  providerCode: "",
  city: "",
  state: "",
  country: "",
  competencies: [],
  supporters: [],
  mocBoard: "",
  mocCreditType: "",
  subjectArea: "",
  registeredFrom: "",
  registeredTo: "",
};

const text = (label: string, max: number) =>
  identifierText().refine((v) => v.length <= max, `${label} must be at most ${max} characters`);
const activityDetailsBodySchema = z.strictObject({
  providerCode: identifierText()
    .refine(
      (v) => v === "" || /^\d{1,20}$/.test(v),
      "The provider activity ID is digits (at most 20)",
    )
    .default(""),
  city: text("City", 60).default(""),
  state: identifierText()
    .refine((v) => v === "" || US_STATES.includes(v), "State must be a US postal code")
    .default(""),
  country: identifierText()
    .refine((v) => v === "" || /^[A-Z]{3}$/.test(v), "Country must be a three-letter ISO code")
    .default(""),
  competencies: z
    .array(z.enum(PARS_COMPETENCIES, { error: "Choose competencies from PARS's list" }))
    .max(PARS_COMPETENCIES.length)
    .default([]),
  supporters: z
    .array(
      z.strictObject({
        source: text("A supporter's name", 100).refine((v) => v !== "", "Name each supporter"),
        amount: z
          .number({ error: "A supporter's amount is a number of dollars" })
          .min(0, "A supporter's amount cannot be negative")
          .max(100_000_000, "A supporter's amount is at most 100,000,000 dollars"),
      }),
    )
    .max(20)
    .default([]),
  mocBoard: z
    .union([z.enum(CERTIFYING_BOARDS), z.literal("")], {
      error: "Choose one of the certifying boards PARS reports to",
    })
    .default(""),
  mocCreditType: text("The MOC credit type", 60).default(""),
  subjectArea: identifierText()
    .refine(
      (v) => v === "" || /^[A-Za-z0-9-]{1,20}$/.test(v),
      "The subject area code is letters and digits (at most 20)",
    )
    .default(""),
  registeredFrom: z.union([calendarDateSchema, z.literal("")]).default(""),
  registeredTo: z.union([calendarDateSchema, z.literal("")]).default(""),
});

const regulatorActivityBodySchema = z
  .strictObject({
    regulator: regulatorSchema,
    activityId: identifierText().refine(
      (v) => v.length <= 40,
      "Activity ID must be at most 40 characters",
    ),
    providerId: identifierText()
      .refine((v) => v.length <= 40, "Provider ID must be at most 40 characters")
      .default(""),
    activityFormat: z
      .union([z.enum(PARS_ACTIVITY_FORMATS), z.literal("")], {
        error: "Choose one of PARS's activity formats",
      })
      .default(""),
    providership: z
      .union([z.enum(PROVIDERSHIPS), z.literal("")], { error: "Choose direct or joint" })
      .default(""),
    commercialSupport: z.boolean().nullable().default(null),
    details: activityDetailsBodySchema.prefault({}),
  })
  .superRefine((r, ctx) => {
    const d = r.details;
    const parsOnly = [
      ["city", d.city],
      ["state", d.state],
      ["country", d.country],
      ["competencies", d.competencies.length],
      ["supporters", d.supporters.length],
      ["mocBoard", d.mocBoard],
      ["mocCreditType", d.mocCreditType],
    ] as const;
    for (const [field, value] of r.regulator === "pars" ? [] : parsOnly) {
      if (value) {
        ctx.addIssue({
          code: "custom",
          path: ["details", field],
          message: `${REGULATOR_NAMES[r.regulator]} keeps no activity record`,
        });
      }
    }
    if (r.regulator !== "ce_broker" && d.subjectArea) {
      ctx.addIssue({
        code: "custom",
        path: ["details", "subjectArea"],
        message: `${REGULATOR_NAMES[r.regulator]} takes no subject area`,
      });
    }
    if (r.regulator !== "cpe_monitor" && (d.registeredFrom || d.registeredTo)) {
      ctx.addIssue({
        code: "custom",
        path: ["details", d.registeredFrom ? "registeredFrom" : "registeredTo"],
        message: `${REGULATOR_NAMES[r.regulator]} keeps no registered dates`,
      });
    }
    if (Boolean(d.registeredFrom) !== Boolean(d.registeredTo)) {
      ctx.addIssue({
        code: "custom",
        path: ["details", d.registeredFrom ? "registeredTo" : "registeredFrom"],
        message: "Give both registered dates, or neither",
      });
    } else if (d.registeredFrom > d.registeredTo) {
      ctx.addIssue({
        code: "custom",
        path: ["details", "registeredTo"],
        message: DATE_RANGE_REVERSED,
      });
    }
    if (r.regulator === "cpe_monitor" && d.providerCode) {
      ctx.addIssue({
        code: "custom",
        path: ["details", "providerCode"],
        message: `${REGULATOR_NAMES[r.regulator]} takes no provider activity ID`,
      });
    }
    if (r.regulator === "pars" && !PARS_LIVE_FORMATS.includes(r.activityFormat)) {
      for (const field of ["city", "state", "country"] as const) {
        if (d[field]) {
          ctx.addIssue({
            code: "custom",
            path: ["details", field],
            message: "Only an activity held in person has a location",
          });
        }
      }
    }
    if (r.commercialSupport !== true && d.supporters.length) {
      ctx.addIssue({
        code: "custom",
        path: ["details", "supporters"],
        message: "Supporters are listed only when commercial support was received",
      });
    }
    if (Boolean(d.mocBoard) !== Boolean(d.mocCreditType)) {
      ctx.addIssue({
        code: "custom",
        path: ["details", d.mocBoard ? "mocCreditType" : "mocBoard"],
        message: "MOC needs both the certifying board and its credit type",
      });
    }
    if (r.regulator !== "pars") {
      for (const field of ["activityFormat", "providership", "commercialSupport"] as const) {
        if (r[field] !== "" && r[field] !== null) {
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: `${REGULATOR_NAMES[r.regulator]} keeps no activity record`,
          });
        }
      }
    }
    const [test, message] = ACTIVITY_ID_RULES[r.regulator];
    if (r.activityId && !test(r.activityId)) {
      ctx.addIssue({ code: "custom", path: ["activityId"], message });
    }
    if (r.regulator !== "ce_broker" && r.providerId) {
      ctx.addIssue({
        code: "custom",
        path: ["providerId"],
        message: `${REGULATOR_NAMES[r.regulator]} takes no provider tracking number`,
      });
    }
    if (r.regulator === "ce_broker" && r.providerId && !isValidCeBrokerProvider(r.providerId)) {
      ctx.addIssue({
        code: "custom",
        path: ["providerId"],
        message: IDENTIFIER_MESSAGES.ceBrokerProvider,
      });
    }
  });

/**
 * PUT /api/courses/{id}/reporting: for each credit type named, the regulators it reports to
 * (an empty list reports nowhere). Types left out keep their settings.
 */
export const courseReportingBodySchema = z.strictObject({
  types: z
    .array(
      z.strictObject({
        creditTypeId: z.string().min(1).max(64),
        regulators: z
          .array(regulatorActivityBodySchema)
          .max(REGULATORS.length)
          .superRefine((list, ctx) => {
            list.forEach((r, i) => {
              if (list.findIndex((o) => o.regulator === r.regulator) !== i) {
                ctx.addIssue({
                  code: "custom",
                  path: [i, "regulator"],
                  message: `${REGULATOR_NAMES[r.regulator]} is listed twice`,
                });
              }
            });
          }),
      }),
    )
    .max(10),
});
export type CourseReportingBody = z.infer<typeof courseReportingBodySchema>;
export type CourseReportingInput = z.input<typeof courseReportingBodySchema>;

/** GET /api/courses/{id}/reporting: each credit type of the course and whom it reports to. */
export const courseReportingSchema = z.object({
  courseId: z.string(),
  types: z.array(
    z.object({
      creditTypeId: z.string(),
      name: z.string(),
      amount: z.number(),
      regulators: z.array(regulatorActivitySchema),
    }),
  ),
});
export type CourseReporting = z.infer<typeof courseReportingSchema>;

/** The identifiers of a regulator's activity that are still missing, in words. */
export function missingActivityIds(r: RegulatorActivityIds): string[] {
  const missing: string[] = [];
  if (!r.activityId) missing.push(ACTIVITY_ID_LABELS[r.regulator]);
  if (r.regulator === "ce_broker" && !r.providerId) missing.push(CE_BROKER_PROVIDER_LABEL);
  return missing;
}
