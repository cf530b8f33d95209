import { z } from "zod";
import { normalizeIdentifier } from "./credit";
import { type Regulator, regulatorSchema } from "./reporting-activity";

/**
 * The identifiers regulators know learners and activities by, and their published rules: a
 * learner's NPI, NABP e-Profile ID, licence, certifying board and month and day of birth,
 * and an activity's PARS activity ID, CE Broker tracking numbers and ACPE UAN. A learner
 * gives theirs once (PUT /api/me/regulator-ids); a claim of a reported credit type asks for
 * what its regulators need (missingRegulatorIds).
 */

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

/** An identifier as typed, its spaces and invisible characters normalised (normalizeIdentifier). */
export const identifierText = () => z.string().max(200).overwrite(normalizeIdentifier);
const optionalMatching = (test: (v: string) => boolean, message: string) =>
  identifierText().refine((v) => v === "" || test(v), message);

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
    firstName: identifierText().refine(
      (v) => v.length <= 100,
      "First name must be at most 100 characters",
    ),
    lastName: identifierText().refine(
      (v) => v.length <= 100,
      "Last name must be at most 100 characters",
    ),
    birthMonth: z.number().int().min(1, "Choose a month").max(12, "Choose a month").nullable(),
    birthDay: z.number().int().min(1, "Enter a day").max(31, "Enter a day").nullable(),
    npi: optionalMatching(isValidNpi, IDENTIFIER_MESSAGES.npi),
    licenceState: identifierText()
      .overwrite((v) => v.toUpperCase())
      .refine((v) => v === "" || US_STATES.includes(v), IDENTIFIER_MESSAGES.licenceState),
    licenceNumber: optionalMatching(isValidLicenceNumber, IDENTIFIER_MESSAGES.licenceNumber),
    profession: identifierText()
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
