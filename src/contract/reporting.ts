import { z } from "zod";
import { attestBodySchema, normalizeIdentifier } from "./credit";
import { calendarDateSchema, DATE_RANGE_REVERSED } from "./dates";
import {
  PARS_ACTIVITY_FORMATS,
  PARS_COMPETENCIES,
  PARS_LIVE_FORMATS,
  PROVIDERSHIPS,
  REGULATORS,
  REPORT_FILE_KINDS,
  type Regulator,
  regulatorSchema,
} from "./reporting-activity";

/**
 * Regulator reporting: each learner's completion sent to the tracking system the licensing
 * boards read. ACCME PARS for physicians' CME and MOC, CE Broker for nurses and other
 * professions, NABP CPE Monitor (through ACPE) for pharmacists. A course's credit type names
 * the regulators it reports to with their identifier for the activity; a learner claiming
 * such a type gives the identifiers that regulator needs, and they are copied into the claim.
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

/* ------------------------------------------------------------------ identifier rules */

/** Whether a string of digits passes the Luhn (mod 10) check, its last digit the check digit. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A National Provider Identifier: 10 digits whose last is a Luhn check digit computed over
 * the first nine with the card-issuer prefix 80840 in front (CMS, "Requirements for
 * Constructing the NPI Check Digit").
 */
export const isValidNpi = (npi: string) => /^\d{10}$/.test(npi) && passesLuhn(`80840${npi}`);

/** The NABP e-Profile ID a pharmacist gives for CPE Monitor: 6 or 7 digits. */
export const isValidEpid = (epid: string) => /^\d{6,7}$/.test(epid);

/**
 * A month and day of birth that exist in some year: 29 February is one (it exists in leap
 * years), 30 February and 31 April are not.
 */
export function isRealBirthDay(month: number, day: number): boolean {
  if (!Number.isInteger(month) || !Number.isInteger(day)) return false;
  // 2000 is a leap year: every month and day any year has exists in it.
  const date = new Date(Date.UTC(2000, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** US states, DC and the territories, by their two-letter postal codes. */
export const US_STATES: readonly string[] = (
  "AK AL AR AS AZ CA CO CT DC DE FL GA GU HI IA ID IL IN KS KY LA MA MD ME MI MN MO MP MS MT " +
  "NC ND NE NH NJ NM NV NY OH OK OR PA PR RI SC SD TN TX UT VA VI VT WA WI WV WY"
).split(" ");

/** A state licence number as boards issue them: letters and digits, with spaces, dots, slashes or dashes between. */
export const isValidLicenceNumber = (number: string) =>
  /^[A-Za-z0-9][A-Za-z0-9 ./-]{0,39}$/.test(number);

/** The certifying boards collaborating with ACCME to receive MOC credit through PARS. */
export const CERTIFYING_BOARDS = [
  "ABA",
  "ABIM",
  "ABOHNS",
  "ABOS",
  "ABP",
  "ABPath",
  "ABS",
  "ABTS",
] as const;

/** A PARS activity ID: the number PARS gives an activity when it is entered. */
export const isValidParsActivityId = (id: string) => /^\d{1,12}$/.test(id);
/** CE Broker course tracking numbers begin with 20-, provider tracking numbers with 50-. */
export const isValidCeBrokerCourse = (id: string) => /^20-\d{1,9}$/.test(id);
export const isValidCeBrokerProvider = (id: string) => /^50-\d{1,9}$/.test(id);
/**
 * An ACPE Universal Activity Number: provider, joint provider, year, sequence, delivery
 * (L live, H home study, B blended) with topic, and audience (P pharmacists, T technicians):
 * 0197-0000-26-105-H01-P.
 */
export const isValidUan = (uan: string) => /^\d{4}-\d{4}-\d{2}-\d{3}-[LHB]\d{2}-[PT]$/.test(uan);

/** What each identifier rule says when a value breaks it: the form and the server say the same. */
export const IDENTIFIER_MESSAGES = {
  npi: "An NPI is 10 digits whose last digit checks the others: check it for a typing error",
  nabpEpid: "An NABP e-Profile ID is 6 or 7 digits",
  birthDay: "Enter a month and day of birth that exist",
  birthPair: "Enter both the month and the day of birth",
  licenceState: "Choose the state by its two-letter code",
  licenceStateNamed: "Name the state that issued the licence, such as CA or California",
  licenceNumber: "A licence number is letters and digits, at most 40",
  licencePair: "Enter the licence number with the state that issued it",
  profession: "A profession is its short code, such as RN or LPN",
  boardId: "A board ID is letters and digits, at most 20",
  boardPair: "Enter the board ID with the board that certifies you",
  parsActivityId: "A PARS activity ID is the number PARS gave the activity",
  ceBrokerCourse: "A CE Broker course tracking number looks like 20-123456",
  ceBrokerProvider: "A CE Broker provider tracking number looks like 50-12345",
  uan: "An ACPE UAN looks like 0197-0000-26-105-H01-P",
} as const;

/* ------------------------------------------------------------------ the learner's identifiers */

const cleaned = () => z.string().max(200).overwrite(normalizeIdentifier);
const optionalMatching = (test: (v: string) => boolean, message: string) =>
  cleaned().refine((v) => v === "" || test(v), message);

/** A certifying board and the learner's ID with it are given together, or neither. */
export function checkBoardPair(
  ids: { certifyingBoard?: string; boardId?: string },
  ctx: z.RefinementCtx,
): void {
  if (Boolean(ids.boardId) === Boolean(ids.certifyingBoard)) return;
  ctx.addIssue({
    code: "custom",
    path: [ids.certifyingBoard ? "boardId" : "certifyingBoard"],
    message: IDENTIFIER_MESSAGES.boardPair,
  });
}

/**
 * PUT /api/me/regulator-ids: what a learner gives the regulators their credit is reported
 * to. Everything may be left empty; each value given is held to its published rule, and a
 * claim of a reported credit type asks for what its regulators need (missingRegulatorIds).
 */
export const regulatorIdsBodySchema = z
  .strictObject({
    firstName: cleaned().refine(
      (v) => v.length <= 100,
      "First name must be at most 100 characters",
    ),
    lastName: cleaned().refine((v) => v.length <= 100, "Last name must be at most 100 characters"),
    birthMonth: z.number().int().min(1, "Choose a month").max(12, "Choose a month").nullable(),
    birthDay: z.number().int().min(1, "Enter a day").max(31, "Enter a day").nullable(),
    npi: optionalMatching(isValidNpi, IDENTIFIER_MESSAGES.npi),
    licenceState: cleaned()
      .overwrite((v) => v.toUpperCase())
      .refine((v) => v === "" || US_STATES.includes(v), IDENTIFIER_MESSAGES.licenceState),
    licenceNumber: optionalMatching(isValidLicenceNumber, IDENTIFIER_MESSAGES.licenceNumber),
    profession: cleaned()
      .overwrite((v) => v.toUpperCase())
      .refine((v) => v === "" || /^[A-Z]{1,10}$/.test(v), IDENTIFIER_MESSAGES.profession),
    certifyingBoard: z.union([z.enum(CERTIFYING_BOARDS), z.literal("")]),
    boardId: optionalMatching((v) => /^[A-Za-z0-9-]{1,20}$/.test(v), IDENTIFIER_MESSAGES.boardId),
    nabpEpid: optionalMatching(isValidEpid, IDENTIFIER_MESSAGES.nabpEpid),
  })
  .superRefine((ids, ctx) => {
    if ((ids.birthMonth === null) !== (ids.birthDay === null)) {
      ctx.addIssue({
        code: "custom",
        path: [ids.birthMonth === null ? "birthMonth" : "birthDay"],
        message: IDENTIFIER_MESSAGES.birthPair,
      });
    } else if (
      ids.birthMonth !== null &&
      ids.birthDay !== null &&
      !isRealBirthDay(ids.birthMonth, ids.birthDay)
    ) {
      ctx.addIssue({ code: "custom", path: ["birthDay"], message: IDENTIFIER_MESSAGES.birthDay });
    }
    if (Boolean(ids.licenceNumber) !== Boolean(ids.licenceState)) {
      ctx.addIssue({
        code: "custom",
        path: [ids.licenceState ? "licenceNumber" : "licenceState"],
        message: IDENTIFIER_MESSAGES.licencePair,
      });
    }
    checkBoardPair(ids, ctx);
  });
export type RegulatorIdsBody = z.infer<typeof regulatorIdsBodySchema>;
export type RegulatorIdsInput = z.input<typeof regulatorIdsBodySchema>;

/** The identifiers as stored and answered (answers are not held to the body's rules). */
export const regulatorIdsSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  birthMonth: z.number().int().nullable(),
  birthDay: z.number().int().nullable(),
  npi: z.string(),
  licenceState: z.string(),
  licenceNumber: z.string(),
  profession: z.string(),
  certifyingBoard: z.string(),
  boardId: z.string(),
  nabpEpid: z.string(),
});
export type RegulatorIds = z.infer<typeof regulatorIdsSchema>;

export const EMPTY_REGULATOR_IDS: RegulatorIds = {
  firstName: "",
  lastName: "",
  birthMonth: null,
  birthDay: null,
  npi: "",
  licenceState: "",
  licenceNumber: "",
  profession: "",
  certifyingBoard: "",
  boardId: "",
  nabpEpid: "",
};

/** GET /api/me/regulator-ids: the learner's identifiers and, for a course, whom it reports to. */
export const myRegulatorIdsSchema = z.object({
  ids: regulatorIdsSchema,
  /** With `courseId`: the regulators its credit types report to, each with its types. */
  course: z
    .array(z.object({ regulator: regulatorSchema, creditTypeIds: z.array(z.string()) }))
    .nullable(),
  /** With `courseId` of a course reporting somewhere: what a claim there asks the learner to agree to. */
  consent: z.string().nullable(),
});
export type MyRegulatorIds = z.infer<typeof myRegulatorIdsSchema>;
export const myRegulatorIdsQuerySchema = z.object({
  courseId: z.string().min(1).max(64).optional(),
});

/**
 * What a claim of a reported credit type keeps: its regulators, the learner's identifiers then
 * and the consent the learner gave to the reporting, word for word (absent from claims made
 * before consent was asked).
 */
export type ClaimRegulatorIds = { regulators: Regulator[]; ids: RegulatorIds; consent?: string };

const hasBirthDay = (ids: RegulatorIds) =>
  ids.birthMonth !== null && ids.birthDay !== null && isRealBirthDay(ids.birthMonth, ids.birthDay);

/**
 * What a regulator needs of the learner that is missing or breaks its rule, in words; empty
 * when the learner can be reported to it. PARS matches a physician by name and month and day
 * of birth with a state licence or a certifying board's ID; CE Broker by the licence, its
 * state and profession; CPE Monitor by the e-Profile ID and month and day of birth.
 */
export function missingRegulatorIds(regulator: Regulator, ids: RegulatorIds): string[] {
  const missing: string[] = [];
  const licence = Boolean(ids.licenceState && ids.licenceNumber);
  if (regulator !== "cpe_monitor") {
    if (!ids.firstName) missing.push("first name");
    if (!ids.lastName) missing.push("last name");
  }
  if (regulator !== "ce_broker" && !hasBirthDay(ids)) missing.push("month and day of birth");
  if (regulator === "pars" && !licence && !(ids.certifyingBoard && ids.boardId)) {
    missing.push("state licence or certifying board ID");
  }
  if (regulator === "ce_broker") {
    if (!licence) missing.push("licence number and state");
    if (!ids.profession) missing.push("profession");
  }
  if (regulator === "cpe_monitor" && !isValidEpid(ids.nabpEpid)) {
    missing.push("NABP e-Profile ID");
  }
  return missing;
}

/* ------------------------------------------------------------------ what a course reports */

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
  cleaned().refine((v) => v.length <= max, `${label} must be at most ${max} characters`);
const activityDetailsBodySchema = z.strictObject({
  providerCode: cleaned()
    .refine(
      (v) => v === "" || /^\d{1,20}$/.test(v),
      "The provider activity ID is digits (at most 20)",
    )
    .default(""),
  city: text("City", 60).default(""),
  state: cleaned()
    .refine((v) => v === "" || US_STATES.includes(v), "State must be a US postal code")
    .default(""),
  country: cleaned()
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
  subjectArea: cleaned()
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
    activityId: cleaned().refine(
      (v) => v.length <= 40,
      "Activity ID must be at most 40 characters",
    ),
    providerId: cleaned()
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

/* ------------------------------------------------------------------ report files */

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
