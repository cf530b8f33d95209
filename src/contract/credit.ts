import { z } from "zod";
import {
  creditAmountText,
  creditClaimBodySchema,
  creditClaimSchema,
  isHundredths,
} from "./credit-types";
import { calendarDateSchema } from "./dates";
import { creditTypeSchema } from "./entities";

/**
 * The credit claim of an accredited course: what a learner reads before starting (the
 * activity), the evaluation, the attestation with the credit claimed, the credit settings a
 * certificate prints, and the licence it prints. Accreditors (ACCME/AMA, NASBA, ANCC, state
 * insurance CE) ask for each of these.
 */

export const OBJECTIVES_MAX = 30;
export const FACULTY_MAX = 50;
export const STATEMENT_MAX = 5000;
/** NASBA self-study allows at most a year; a longer window is still allowed for other bodies. */
export const ENROLLMENT_VALID_DAYS_MAX = 3650;
export const DEFAULT_RETENTION_YEARS = 6;
export const EVALUATION_ITEMS_MAX = 40;
export const EVALUATION_TEXT_ANSWER_MAX = 2000;
export const SIGNATURE_MAX_BYTES = 150 * 1024;

const text = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
const requiredText = (max: number, label: string) =>
  text(max, label).min(1, `${label} is required`);
const optionalDate = calendarDateSchema.nullable();

const hundredths = isHundredths;

export const facultyMemberSchema = z.strictObject({
  name: requiredText(200, "Faculty name"),
  role: text(200, "Faculty role"),
  disclosure: text(2000, "Faculty disclosure"),
});
export type FacultyMember = z.infer<typeof facultyMemberSchema>;

/** PUT /api/courses/{id}/activity: the whole "About this activity" page and its rules. */
export const activityBodySchema = z
  .strictObject({
    objectives: z
      .array(requiredText(500, "An objective"))
      .max(OBJECTIVES_MAX, `At most ${OBJECTIVES_MAX} objectives`),
    faculty: z.array(facultyMemberSchema).max(FACULTY_MAX, `At most ${FACULTY_MAX} people`),
    disclosureStatement: text(STATEMENT_MAX, "Disclosure statement"),
    releaseDate: optionalDate,
    reviewDate: optionalDate,
    expirationDate: optionalDate,
    enrollmentValidDays: z
      .number({ error: "Enrollment validity must be a number of days" })
      .int("Enrollment validity must be whole days")
      .min(1, "Enrollment validity must be at least 1 day")
      .max(
        ENROLLMENT_VALID_DAYS_MAX,
        `Enrollment validity must be at most ${ENROLLMENT_VALID_DAYS_MAX} days`,
      )
      .nullable(),
    acknowledgementRequired: z.boolean(),
    evaluationRequired: z.boolean(),
    attestationRequired: z.boolean(),
    attestationText: text(2000, "Attestation statement"),
    retentionYears: z
      .number({ error: "Retention must be a number of years" })
      .int("Retention must be whole years")
      .min(1, "Records must be kept at least 1 year")
      .max(100, "Retention must be at most 100 years"),
  })
  .superRefine((body, ctx) => {
    // Zero-width characters alone would give learners a statement with nothing to read.
    if (body.attestationRequired && !body.attestationText.replace(INVISIBLE, "").trim()) {
      ctx.addIssue({
        code: "custom",
        path: ["attestationText"],
        message: "Write the statement learners attest to",
      });
    }
    const order: [keyof typeof body, string | null][] = [
      ["releaseDate", body.releaseDate],
      ["reviewDate", body.reviewDate],
      ["expirationDate", body.expirationDate],
    ];
    const dated = order.filter(([, v]) => v !== null);
    for (let i = 1; i < dated.length; i++) {
      if ((dated[i]![1] as string) < (dated[i - 1]![1] as string)) {
        ctx.addIssue({
          code: "custom",
          path: [dated[i]![0]],
          message: "Dates must run release, review, expiration",
        });
      }
    }
  });
export type ActivityBody = z.infer<typeof activityBodySchema>;
export type ActivityInput = z.input<typeof activityBodySchema>;

/** A course's activity as stored: the defaults until an administrator saves one. */
export const DEFAULT_ACTIVITY: ActivityBody = {
  objectives: [],
  faculty: [],
  disclosureStatement: "",
  releaseDate: null,
  reviewDate: null,
  expirationDate: null,
  enrollmentValidDays: null,
  acknowledgementRequired: false,
  evaluationRequired: false,
  attestationRequired: false,
  attestationText: "",
  retentionYears: DEFAULT_RETENTION_YEARS,
};

/* ------------------------------------------------------------------ credit settings */

export const fieldOfStudySchema = z.strictObject({
  field: requiredText(100, "Field of study"),
  credits: z
    .number({ error: "Credits must be a number" })
    .positive("Credits must be greater than 0")
    .max(1000, "Credits must be at most 1000")
    .refine(hundredths, "Credits can have at most 2 decimals"),
});
export type FieldOfStudy = z.infer<typeof fieldOfStudySchema>;

export const DELIVERY_METHODS = [
  "QAS Self-Study",
  "Internet-based enduring material",
  "Group Internet-Based",
  "Live",
  "Other",
] as const;

/** PUT /api/courses/{id}/credit-settings: what a credit-ready certificate prints. */
export const creditSettingsBodySchema = z.strictObject({
  sponsorName: text(200, "Sponsor name"),
  sponsorAddress: text(500, "Sponsor address"),
  deliveryMethod: text(100, "Delivery method"),
  fieldsOfStudy: z.array(fieldOfStudySchema).max(20, "At most 20 fields of study"),
  officialName: text(200, "Responsible official's name"),
  officialTitle: text(200, "Responsible official's title"),
});
export type CreditSettingsBody = z.infer<typeof creditSettingsBodySchema>;

export const creditSettingsSchema = creditSettingsBodySchema.extend({
  /** The official's signature image, served at /api/signatures/{id}. */
  signatureId: z.string().nullable(),
});
export type CreditSettings = z.infer<typeof creditSettingsSchema>;

export const DEFAULT_CREDIT_SETTINGS: CreditSettings = {
  sponsorName: "",
  sponsorAddress: "",
  deliveryMethod: "",
  fieldsOfStudy: [],
  officialName: "",
  officialTitle: "",
  signatureId: null,
};

/** PUT /api/courses/{id}/signature: a PNG or JPEG as a data URL (checked by its bytes). */
export const signatureBodySchema = z.strictObject({
  dataUrl: z
    .string()
    .max(
      Math.ceil((SIGNATURE_MAX_BYTES * 4) / 3) + 64,
      "The signature image must be at most 150 KB",
    )
    .regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/, "Upload a PNG or JPEG image"),
});

/** Where the learner asking stands with the activity's dates (null for administrators). */
export const activityStandingSchema = z.object({
  acknowledgedAt: z.string().nullable(),
  enrolledAt: z.string(),
  /** The end of the enrollment validity window, if the course has one. */
  enrollmentExpiresAt: z.string().nullable(),
  enrollmentExpired: z.boolean(),
  /** The learner's attestation and the credit claimed with it, once attested. */
  attestation: z
    .object({
      attestedAt: z.string(),
      /** The amount claimed when one type is claimed; null when none or several are. */
      creditsClaimed: z.number().nullable(),
      credits: z.array(creditClaimSchema),
    })
    .nullable(),
});

export const activitySchema = z.object({
  courseId: z.string(),
  ...activityBodySchema.shape,
  /** From the course: its duration in hours and the credit types it offers. */
  estimatedHours: z.number().int(),
  creditTypes: z.array(creditTypeSchema),
  /** Whether the expiration date has passed: nobody can start or earn credit. */
  courseExpired: z.boolean(),
  credit: creditSettingsSchema,
  standing: activityStandingSchema.nullable(),
  updatedAt: z.string().nullable(),
});
export type Activity = z.infer<typeof activitySchema>;

export const acknowledgeResponseSchema = z.object({ acknowledgedAt: z.string() });

/* ------------------------------------------------------------------ licence */

/**
 * Characters that print as nothing: format characters (zero-width spaces and joiners,
 * direction marks, the byte-order mark), the other default-ignorable code points (Hangul
 * fillers, variation selectors), and the noncharacters (U+FFFE, U+FFFF…).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/gu;

/**
 * An identifier a learner typed, in the one form it is stored, compared and printed in:
 * NFKC (full-width digits become digits), without invisible characters or noncharacters
 * (no file format may hold them), each run of spaces or control characters one space,
 * trimmed.
 */
export function normalizeIdentifier(value: string): string {
  return value
    .normalize("NFKC")
    .replace(INVISIBLE, "")
    .replace(/[\s\p{Cc}]+/gu, " ")
    .trim();
}

/** Whether an identifier shows anything: a letter or a digit, once normalised. */
export const isVisibleIdentifier = (value: string) =>
  /[\p{L}\p{N}]/u.test(normalizeIdentifier(value));

/**
 * The licence a certificate prints, and GET /api/profile/licence answers: the learner's first
 * licence with their NPN (identifiers.ts keeps every licence). Answers are not held to the
 * body's rules, so a licence saved before a rule existed can still be read (and corrected).
 */
export const licenceSchema = z.object({
  licenceType: z.string(),
  licenceNumber: z.string(),
  licenceState: z.string(),
  npn: z.string(),
});
export type Licence = z.infer<typeof licenceSchema>;
export const EMPTY_LICENCE: Licence = {
  licenceType: "",
  licenceNumber: "",
  licenceState: "",
  npn: "",
};

/**
 * An identifier as the public verification page shows it: "•••• " and its last 4
 * characters, never more than half of it ("•••• 4321", "•••• 89", "••••").
 */
export function maskIdentifier(value: string): string {
  const characters = Array.from(normalizeIdentifier(value));
  if (!characters.length) return "";
  const shown = characters.slice(characters.length - Math.min(4, characters.length >> 1));
  return shown.length ? `•••• ${shown.join("")}` : "••••";
}

/** The licence as anyone holding a certificate's code may see it: its numbers masked. */
export const maskedLicence = (l: Licence): Licence => ({
  ...l,
  licenceNumber: maskIdentifier(l.licenceNumber),
  npn: maskIdentifier(l.npn),
});

/* ------------------------------------------------------------------ evaluation */

export const evaluationItemKindSchema = z.enum(["likert", "text"]);
export const evaluationItemSchema = z.object({
  id: z.string(),
  kind: evaluationItemKindSchema,
  text: z.string(),
  required: z.boolean(),
});
export type EvaluationItem = z.infer<typeof evaluationItemSchema>;

export const evaluationItemBodySchema = z.strictObject({
  /** Kept across edits so answers stay with their item; new items get one from the server. */
  id: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/, "Item ids are lower-case letters, digits, - and _")
    .optional(),
  kind: evaluationItemKindSchema,
  text: requiredText(500, "Item text"),
  required: z.boolean(),
});
export const evaluationFormBodySchema = z.strictObject({
  items: z
    .array(evaluationItemBodySchema)
    .min(1, "The evaluation needs at least one item")
    .max(EVALUATION_ITEMS_MAX, `At most ${EVALUATION_ITEMS_MAX} items`)
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, i) => {
        if (!item.id) return;
        if (seen.has(item.id)) {
          ctx.addIssue({ code: "custom", path: [i, "id"], message: "Item ids must be unique" });
        }
        seen.add(item.id);
      });
    }),
});
export type EvaluationFormBody = z.infer<typeof evaluationFormBodySchema>;

export const evaluationFormSchema = z.object({
  items: z.array(evaluationItemSchema),
  submitted: z.boolean(),
});
export type EvaluationForm = z.infer<typeof evaluationFormSchema>;

/** The template every course starts from: ACCME's questions, editable per course. */
export const DEFAULT_EVALUATION_ITEMS: EvaluationItem[] = [
  { id: "objectives", kind: "likert", text: "The learning objectives were met.", required: true },
  {
    id: "relevance",
    kind: "likert",
    text: "The content is relevant to my practice.",
    required: true,
  },
  {
    id: "balance",
    kind: "likert",
    text: "The content was fair, balanced and free of commercial bias.",
    required: true,
  },
  { id: "faculty", kind: "likert", text: "The faculty were effective.", required: true },
  { id: "comments", kind: "text", text: "Comments and suggestions", required: false },
];

export const LIKERT_LABELS = [
  "Strongly disagree",
  "Disagree",
  "Neutral",
  "Agree",
  "Strongly agree",
] as const;

export const evaluationAnswersBodySchema = z.strictObject({
  answers: z
    .array(
      z.strictObject({
        itemId: z.string().min(1).max(40),
        value: z.union([
          z.number().int("A rating is a whole number").min(1).max(5),
          z
            .string()
            .max(
              EVALUATION_TEXT_ANSWER_MAX,
              `An answer must be at most ${EVALUATION_TEXT_ANSWER_MAX} characters`,
            ),
        ]),
      }),
    )
    .max(EVALUATION_ITEMS_MAX),
});
export type EvaluationAnswersBody = z.infer<typeof evaluationAnswersBodySchema>;

export const evaluationResultsSchema = z.object({
  courseId: z.string(),
  responses: z.number().int(),
  items: z.array(
    z.object({
      id: z.string(),
      kind: evaluationItemKindSchema,
      text: z.string(),
      answered: z.number().int(),
      /** Likert items: the mean and the count of each rating 1-5. */
      mean: z.number().nullable(),
      distribution: z.array(z.number().int()),
      /** Text items: the answers, in no particular order (never linked to a learner). */
      comments: z.array(z.string()),
    }),
  ),
});
export type EvaluationResults = z.infer<typeof evaluationResultsSchema>;
export const evaluationResultsQuerySchema = z.object({
  format: z.enum(["json", "csv"]).default("json"),
});

/* ------------------------------------------------------------------ attestation */

export const attestBodySchema = z
  .strictObject({
    statement: z.string().max(2000),
    /**
     * The claim of a course offering one credit type, as before types: never rounded, a
     * claim that is not a number of hundredths is refused as it is.
     */
    creditsClaimed: z
      .number({ error: "Credits claimed must be a number" })
      .positive("Credits claimed must be greater than 0")
      .max(1000, "Credits claimed must be at most 1000")
      .refine(hundredths, "Credits claimed can have at most 2 decimals")
      .nullable()
      .optional(),
    /** The credit types claimed, each once, with their amounts. */
    claims: z.array(creditClaimBodySchema).max(10, "At most 10 claims").optional(),
  })
  .superRefine((body, ctx) => {
    if (body.claims && body.creditsClaimed != null) {
      ctx.addIssue({
        code: "custom",
        path: ["creditsClaimed"],
        message: "Send the claims or the credits claimed, not both",
      });
    }
    body.claims?.forEach((c, i) => {
      if (body.claims!.findIndex((o) => o.creditTypeId === c.creditTypeId) !== i) {
        ctx.addIssue({
          code: "custom",
          path: ["claims", i, "creditTypeId"],
          message: "Claim each credit type once",
        });
      }
    });
  });
export type AttestBody = z.infer<typeof attestBodySchema>;
export const attestResponseSchema = z.object({
  attestedAt: z.string(),
  /** The amount claimed when one type is claimed; null when none or several are. */
  creditsClaimed: z.number().nullable(),
  credits: z.array(creditClaimSchema),
});

/**
 * Whether a claim is a whole number of the course's steps (0.25, 0.5, …): positive and
 * exactly in hundredths, so nothing is rounded onto a step.
 */
export function isOnStep(claim: number, step: number): boolean {
  if (!(claim > 0 && hundredths(claim) && step > 0 && hundredths(step))) return false;
  return Math.round(claim * 100) % Math.round(step * 100) === 0;
}

/** The claims a learner can pick: each step up to the designated credit. */
export function creditChoices(designated: number, step: number): number[] {
  const choices: number[] = [];
  const count = Math.floor(Math.round(designated * 100) / Math.round(step * 100));
  for (let i = 1; i <= count; i++) choices.push(Math.round(i * step * 100) / 100);
  return choices;
}

/* ------------------------------------------------------------------ completion */

/** The fixed order of a course's completion: a step opens when every required one before it is done. */
export const COMPLETION_STEPS = [
  "acknowledge",
  "modules",
  "review",
  "exam",
  "evaluation",
  "commitment",
  "attestation",
  "certificate",
] as const;
export const completionStepKeySchema = z.enum(COMPLETION_STEPS);
export type CompletionStepKey = z.infer<typeof completionStepKeySchema>;
export const COMPLETION_STEP_LABELS: Record<CompletionStepKey, string> = {
  acknowledge: "About this activity",
  modules: "Modules",
  review: "Review questions",
  exam: "Final exam",
  evaluation: "Evaluation",
  commitment: "Commitment to change",
  attestation: "Attestation",
  certificate: "Certificate",
};
/**
 * The audit events a learner's steps record, with their labels, declared with the step that
 * writes them: a new step adds its key, its label and its events here, and the audit trail's
 * list and filters take them from here.
 */
export const COMPLETION_STEP_EVENTS = {
  acknowledge: { "activity.acknowledged": "Activity page acknowledged" },
  modules: { "module.completed": "Module completed" },
  review: { "review.answered": "Review questions answered" },
  exam: {
    "exam.attempt_started": "Exam attempt started",
    "exam.attempt_submitted": "Exam attempt submitted",
    "exam.extra_attempt_granted": "Extra exam attempt granted",
  },
  evaluation: { "evaluation.submitted": "Evaluation submitted" },
  commitment: { "commitment.answered": "Commitment to change answered" },
  attestation: { "attestation.signed": "Attestation signed" },
  certificate: {},
} as const satisfies Record<CompletionStepKey, Record<string, string>>;
type StepEvents = typeof COMPLETION_STEP_EVENTS;
export type CompletionStepEventType = {
  [K in CompletionStepKey]: keyof StepEvents[K];
}[CompletionStepKey];
/** "Complete modules first.": a step taken before a required one, named as in a sentence. */
export const stepFirstMessage = (step: CompletionStepKey) =>
  CREDIT_MESSAGES.outOfOrder(COMPLETION_STEP_LABELS[step].toLowerCase());

export const completionSchema = z.object({
  courseId: z.string(),
  isCompleted: z.boolean(),
  steps: z.array(
    z.object({
      key: completionStepKeySchema,
      label: z.string(),
      required: z.boolean(),
      done: z.boolean(),
      doneAt: z.string().nullable(),
    }),
  ),
  next: completionStepKeySchema.nullable(),
});
export type Completion = z.infer<typeof completionSchema>;
export const completionQuerySchema = z.object({ userId: z.string().max(64).optional() });

/* ------------------------------------------------------------------ certificate */

/**
 * What a credit-ready certificate adds, snapshotted at issue. The credit claimed itself is the
 * certificate's `credits`; `creditsClaimed`, `accreditationStatement` and `registryNumber`
 * are what certificates issued before credit types recorded, and repeat `credits` on later
 * ones (the amount of a single claim, the claimed types' statements, no registry number).
 */
export const certificateCreditSchema = z.object({
  creditsClaimed: z.number().nullable(),
  fieldsOfStudy: z.array(fieldOfStudySchema),
  sponsorName: z.string(),
  sponsorAddress: z.string(),
  deliveryMethod: z.string(),
  accreditationStatement: z.string(),
  registryNumber: z.string(),
  officialName: z.string(),
  officialTitle: z.string(),
  signatureId: z.string().nullable(),
  licence: licenceSchema.nullable(),
  attestedAt: z.string().nullable(),
});
export type CertificateCredit = z.infer<typeof certificateCreditSchema>;

/** Each field's credits scaled to the claim: a learner claiming half gets half in each field. */
export function claimedFields(
  fields: FieldOfStudy[],
  designated: number | null,
  claimed: number | null,
): FieldOfStudy[] {
  if (claimed === null || designated === null || designated <= 0 || claimed === designated) {
    return fields;
  }
  // Shared out in hundredths by largest remainders, so the parts add up to the claim exactly
  // (two halves of 0.25 are 0.13 and 0.12, not 0.13 twice).
  const exact = fields.map((f) => (f.credits * claimed * 100) / designated);
  const parts = exact.map((x) => Math.floor(x + 1e-9));
  let left = Math.round(claimed * 100) - parts.reduce((sum, p) => sum + p, 0);
  const byRemainder = exact
    .map((x, i) => ({ i, rest: x - parts[i]! }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return fields.map((f, i) => ({ field: f.field, credits: parts[i]! / 100 }));
}

/** What the learner screens and the server say about the credit claim. */
export const CREDIT_MESSAGES = {
  acknowledgeFirst: "Read and acknowledge About this activity before starting the course.",
  courseExpired: "This activity has expired: it can no longer be started or earn credit.",
  enrollmentExpired: "Your enrollment in this course has expired.",
  outOfOrder: (step: string) => `Complete ${step} first.`,
  evaluationDone: "You have already submitted the evaluation.",
  evaluationNotAsked: "This course has no evaluation to submit.",
  attestationDone: "You have already attested to this activity.",
  attestationNotAsked: "This course asks for no attestation.",
  /** A form step (`step` in words: "commitment to change") the course does not ask for. */
  formStepNotAsked: (step: string) => `This course does not ask for a ${step}.`,
  statementChanged: "The attestation statement has changed. Read it again and attest.",
  claimTooHigh: (max: number, name: string) =>
    `You can claim at most ${creditAmountText(max, name)}.`,
  claimOffStep: (step: number, name: string) => `Claim ${name} in steps of ${step}.`,
  claimNeeded: "Choose the credit you claim.",
  noPartialCredit: "This course awards its designated credit: claim nothing else.",
  unknownCreditType: "This course does not offer that credit type.",
  licenceNeeded: "Add your licence details in your profile to receive the certificate.",
} as const;
