import { z } from "zod";
import { isVisibleIdentifier, type Licence, normalizeIdentifier } from "./credit";
import {
  checkBoardPair,
  IDENTIFIER_MESSAGES,
  isRealBirthDay,
  isValidEpid,
  isValidLicenceNumber,
  type RegulatorIds,
  regulatorIdsBodySchema,
  US_STATES,
} from "./regulator-ids";
import { attestWithConsentBodySchema } from "./reporting";
import type { Regulator } from "./reporting-activity";

/**
 * A learner's professional identifiers, kept once: their licences (each by licence type or
 * board, state and number), NPI, NABP e-Profile ID, NPN, month and day of birth, and what
 * the regulators match them by (name as the board knows it, profession, certifying board).
 * The profile edits the whole record; a step that needs some of it (the attestation of
 * reported or licence-requiring credit) asks for what is still missing and saves it into
 * the same record. Certificates print the first licence; claims keep a copy of what their
 * regulators were sent.
 */

export const LICENCES_MAX = 10;

/** US states, DC and the territories by name, for a state written out rather than coded. */
export const US_STATE_NAMES: Readonly<Record<string, string>> = {
  AK: "Alaska",
  AL: "Alabama",
  AR: "Arkansas",
  AS: "American Samoa",
  AZ: "Arizona",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DC: "District of Columbia",
  DE: "Delaware",
  FL: "Florida",
  GA: "Georgia",
  GU: "Guam",
  HI: "Hawaii",
  IA: "Iowa",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  MA: "Massachusetts",
  MD: "Maryland",
  ME: "Maine",
  MI: "Michigan",
  MN: "Minnesota",
  MO: "Missouri",
  MP: "Northern Mariana Islands",
  MS: "Mississippi",
  MT: "Montana",
  NC: "North Carolina",
  ND: "North Dakota",
  NE: "Nebraska",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NV: "Nevada",
  NY: "New York",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  PR: "Puerto Rico",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VA: "Virginia",
  VI: "Virgin Islands",
  VT: "Vermont",
  WA: "Washington",
  WI: "Wisconsin",
  WV: "West Virginia",
  WY: "Wyoming",
};

/**
 * The code of the state a text names: the text is the code or the state's name, or names it
 * as whole words ("California Board of Accountancy"; "West Virginia" before "Virginia").
 * "" when it names none.
 */
export function stateCodeOf(text: string): string {
  const typed = normalizeIdentifier(text);
  if (US_STATES.includes(typed.toUpperCase())) return typed.toUpperCase();
  const words = ` ${typed.toLowerCase().replace(/[^\p{L}]+/gu, " ")} `;
  let best = "";
  for (const [code, name] of Object.entries(US_STATE_NAMES)) {
    const named = words.includes(` ${name.toLowerCase().replace(/[^\p{L}]+/gu, " ")} `);
    if (named && name.length > (US_STATE_NAMES[best]?.length ?? 0)) best = code;
  }
  return best;
}

/* ------------------------------------------------------------------ the record */

export const licenceEntrySchema = z.object({
  /** The licence type or the board that issued it: "RN", "MD", "Florida Board of Nursing". */
  licenceType: z.string(),
  /** The issuing state's two-letter code. */
  licenceState: z.string(),
  licenceNumber: z.string(),
});
export type LicenceEntry = z.infer<typeof licenceEntrySchema>;

/** The learner's identifiers as stored and answered (answers are not held to the body's rules). */
export const identifiersSchema = z.object({
  licences: z.array(licenceEntrySchema),
  npi: z.string(),
  nabpEpid: z.string(),
  npn: z.string(),
  birthMonth: z.number().int().nullable(),
  birthDay: z.number().int().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  profession: z.string(),
  certifyingBoard: z.string(),
  boardId: z.string(),
});
export type Identifiers = z.infer<typeof identifiersSchema>;

export const EMPTY_IDENTIFIERS: Identifiers = {
  licences: [],
  npi: "",
  nabpEpid: "",
  npn: "",
  birthMonth: null,
  birthDay: null,
  firstName: "",
  lastName: "",
  profession: "",
  certifyingBoard: "",
  boardId: "",
};

/* ------------------------------------------------------------------ what may be saved */

/**
 * Free text the learner types. Text typed but invisible (zero-width spaces, fillers) is
 * refused rather than stored: a certificate would print a licence nobody can read.
 */
const visibleText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .refine(
      (typed) => typed.trim() === "" || isVisibleIdentifier(typed),
      `${label} must show letters or digits`,
    )
    .overwrite(normalizeIdentifier)
    .refine((v) => v.length <= max, `${label} must be at most ${max} characters`);

const stateCode = () =>
  z
    .string({ error: "Must be text" })
    .max(200)
    .overwrite((v) => normalizeIdentifier(v).toUpperCase())
    .refine((v) => v === "" || US_STATES.includes(v), IDENTIFIER_MESSAGES.licenceState);

/** One licence: its number and the state that issued it, always together. */
export const licenceEntryBodySchema = z
  .strictObject({
    licenceType: visibleText("Licence type or board", 200),
    licenceState: stateCode(),
    licenceNumber: visibleText("Licence number", 200).refine(
      (v) => v === "" || isValidLicenceNumber(v),
      IDENTIFIER_MESSAGES.licenceNumber,
    ),
  })
  .superRefine((licence, ctx) => {
    if (!licence.licenceNumber || !licence.licenceState) {
      ctx.addIssue({
        code: "custom",
        path: [licence.licenceNumber ? "licenceState" : "licenceNumber"],
        message: IDENTIFIER_MESSAGES.licencePair,
      });
    }
  });
export type LicenceEntryInput = z.input<typeof licenceEntryBodySchema>;

const npnSchema = visibleText("NPN", 10).refine(
  (v) => /^(\d{1,10})?$/.test(v),
  "An NPN is up to 10 digits",
);
const regulatorFields = regulatorIdsBodySchema.shape;
/**
 * A regulator's identifier whose typed text must show something: invisible characters alone
 * are refused, never stored as a value cleared without the learner knowing.
 */
const shown = <T extends z.ZodType<unknown, string>>(field: T, message: string) =>
  z
    .string({ error: "Must be text" })
    .refine((typed) => typed.trim() === "" || isVisibleIdentifier(typed), message)
    .pipe(field);

/**
 * PATCH /api/me/identifiers, and the identifiers an attestation brings: the values named
 * change, the others keep theirs. `licences` is the whole list, in the learner's order.
 * Each value is held to its published rule; the month and day of birth, and the certifying
 * board and its ID, are named together.
 */
export const identifiersBodySchema = z
  .strictObject({
    licences: z
      .array(licenceEntryBodySchema)
      .max(LICENCES_MAX, `At most ${LICENCES_MAX} licences`)
      .superRefine((list, ctx) => {
        const keys = list.map((l) => `${l.licenceState} ${l.licenceNumber.toUpperCase()}`);
        keys.forEach((key, i) => {
          if (keys.indexOf(key) !== i) {
            ctx.addIssue({
              code: "custom",
              path: [i, "licenceNumber"],
              message: "This licence is listed twice",
            });
          }
        });
      }),
    npi: shown(regulatorFields.npi, IDENTIFIER_MESSAGES.npi),
    nabpEpid: shown(regulatorFields.nabpEpid, IDENTIFIER_MESSAGES.nabpEpid),
    npn: npnSchema,
    birthMonth: regulatorFields.birthMonth,
    birthDay: regulatorFields.birthDay,
    firstName: shown(regulatorFields.firstName, "A name must show letters"),
    lastName: shown(regulatorFields.lastName, "A name must show letters"),
    profession: shown(regulatorFields.profession, IDENTIFIER_MESSAGES.profession),
    certifyingBoard: regulatorFields.certifyingBoard,
    boardId: shown(regulatorFields.boardId, IDENTIFIER_MESSAGES.boardId),
  })
  .partial()
  .superRefine((ids, ctx) => {
    const pair = (a: keyof typeof ids, b: keyof typeof ids, message: string) => {
      if (a in ids !== b in ids) {
        ctx.addIssue({ code: "custom", path: [a in ids ? b : a], message });
        return false;
      }
      return a in ids;
    };
    if (pair("birthMonth", "birthDay", IDENTIFIER_MESSAGES.birthPair)) {
      const { birthMonth: month = null, birthDay: day = null } = ids;
      if ((month === null) !== (day === null)) {
        ctx.addIssue({
          code: "custom",
          path: [month === null ? "birthMonth" : "birthDay"],
          message: IDENTIFIER_MESSAGES.birthPair,
        });
      } else if (month !== null && day !== null && !isRealBirthDay(month, day)) {
        ctx.addIssue({ code: "custom", path: ["birthDay"], message: IDENTIFIER_MESSAGES.birthDay });
      }
    }
    if (pair("certifyingBoard", "boardId", IDENTIFIER_MESSAGES.boardPair)) {
      checkBoardPair(ids, ctx);
    }
  });
export type IdentifiersBody = z.infer<typeof identifiersBodySchema>;
export type IdentifiersInput = z.input<typeof identifiersBodySchema>;

/**
 * POST /api/courses/{id}/attest, with the identifiers the attestation asked for (those its
 * claim needs and the record lacks): saved into the learner's record with the attestation,
 * or not at all, before the claim copies what its regulators are sent.
 */
export const attestWithIdentifiersBodySchema = attestWithConsentBodySchema.safeExtend({
  identifiers: identifiersBodySchema.optional(),
});
export type AttestWithIdentifiersBody = z.infer<typeof attestWithIdentifiersBodySchema>;

/** Licence numbers whose form is known, by the licence type that names them. */
const LICENCE_NUMBER_FORMS: Record<string, { pattern: RegExp; message: string }> = {
  NPI: { pattern: /^\d{10}$/, message: "An NPI is 10 digits" },
};

/**
 * PUT /api/profile/licence: one licence and the NPN, as the profile asked before it kept a
 * list. The licence becomes the learner's first (the one certificates print). Its issuing
 * state may be written out ("Pennsylvania", "California Board of Accountancy"): it is kept
 * as the state's code, and a board named beside it as part of the licence type.
 */
export const licenceBodySchema = z
  .strictObject({
    licenceType: visibleText("Licence type", 100),
    licenceNumber: visibleText("Licence number", 100),
    licenceState: visibleText("Issuing state or board", 100),
    npn: npnSchema,
  })
  .superRefine((licence, ctx) => {
    const form = LICENCE_NUMBER_FORMS[licence.licenceType.toUpperCase()];
    if (form && licence.licenceNumber && !form.pattern.test(licence.licenceNumber)) {
      ctx.addIssue({ code: "custom", path: ["licenceNumber"], message: form.message });
    } else if (licence.licenceNumber && !isValidLicenceNumber(licence.licenceNumber)) {
      ctx.addIssue({
        code: "custom",
        path: ["licenceNumber"],
        message: IDENTIFIER_MESSAGES.licenceNumber,
      });
    }
    if (licence.licenceState && !stateCodeOf(licence.licenceState)) {
      ctx.addIssue({
        code: "custom",
        path: ["licenceState"],
        message: IDENTIFIER_MESSAGES.licenceStateNamed,
      });
    } else if (Boolean(licence.licenceNumber) !== Boolean(licence.licenceState)) {
      ctx.addIssue({
        code: "custom",
        path: [licence.licenceNumber ? "licenceState" : "licenceNumber"],
        message: IDENTIFIER_MESSAGES.licencePair,
      });
    }
  });
export type LicenceBody = z.infer<typeof licenceBodySchema>;

/**
 * A licence given as one licence (PUT /api/profile/licence), as the record keeps it: the
 * state by its code, and a board written beside the state kept with the licence type.
 */
export function licenceEntryOf(body: LicenceBody): LicenceEntry | null {
  if (!body.licenceNumber) return null;
  const licenceState = stateCodeOf(body.licenceState);
  const stateOnly = [licenceState, US_STATE_NAMES[licenceState]?.toUpperCase()].includes(
    body.licenceState.toUpperCase(),
  );
  const licenceType = stateOnly
    ? body.licenceType
    : [body.licenceType, body.licenceState].filter(Boolean).join(", ");
  return { licenceType, licenceState, licenceNumber: body.licenceNumber };
}

/* ------------------------------------------------------------------ what the record answers */

/**
 * The licence a certificate prints and the regulators are sent: the first with its state,
 * else (a licence kept from before states were asked) the first with a number.
 */
export const firstLicence = (ids: Identifiers): LicenceEntry | undefined =>
  ids.licences.find((l) => l.licenceState && l.licenceNumber) ??
  ids.licences.find((l) => l.licenceNumber);

/** The licence a certificate prints, with the NPN: null when nothing of it is given. */
export function certificateLicenceOf(ids: Identifiers): Licence | null {
  const first = firstLicence(ids);
  const licence: Licence = {
    licenceType: first?.licenceType ?? "",
    licenceNumber: first?.licenceNumber ?? "",
    licenceState: first?.licenceState ?? "",
    npn: ids.npn,
  };
  return Object.values(licence).some(Boolean) ? licence : null;
}

/** What a credit type requiring the learner's licence accepts: a licence number, or an NPN. */
export const hasLicenceOnFile = (ids: Identifiers): boolean =>
  ids.licences.some((l) => isVisibleIdentifier(l.licenceNumber)) || isVisibleIdentifier(ids.npn);

/** What a claim reporting to regulators copies: the identifiers with the first state licence. */
export function regulatorIdsOf(ids: Identifiers): RegulatorIds {
  const licence = ids.licences.find((l) => l.licenceState && l.licenceNumber);
  return {
    firstName: ids.firstName,
    lastName: ids.lastName,
    birthMonth: ids.birthMonth,
    birthDay: ids.birthDay,
    npi: ids.npi,
    licenceState: licence?.licenceState ?? "",
    licenceNumber: licence?.licenceNumber ?? "",
    profession: ids.profession,
    certifyingBoard: ids.certifyingBoard,
    boardId: ids.boardId,
    nabpEpid: ids.nabpEpid,
  };
}

/* ------------------------------------------------------------------ what a claim asks */

/**
 * What a claim may ask of the learner, each met or not by the record: a licence (a type
 * requiring it; an NPN also does), a state licence (CE Broker), a state licence or a
 * certifying board's ID (PARS), the name as the board knows it, the month and day of birth,
 * the profession (CE Broker) and the NABP e-Profile ID (CPE Monitor).
 */
export const IDENTIFIER_NEEDS = [
  "licence",
  "stateLicence",
  "licenceOrBoard",
  "name",
  "birth",
  "profession",
  "nabpEpid",
] as const;
export type IdentifierNeed = (typeof IDENTIFIER_NEEDS)[number];

/**
 * What a claim of credit reporting to `regulators`, and requiring a licence or not, asks of
 * the learner: the same the server holds the claim to (missingRegulatorIds, and the
 * certificate's licence rule).
 */
export function identifierNeeds(
  regulators: readonly Regulator[],
  licenceRequired: boolean,
): IdentifierNeed[] {
  const asks = (...names: Regulator[]) => names.some((r) => regulators.includes(r));
  const needs = new Set<IdentifierNeed>();
  if (licenceRequired) needs.add("licence");
  if (asks("ce_broker")) needs.add("stateLicence").add("profession");
  else if (asks("pars")) needs.add("licenceOrBoard");
  if (asks("pars", "ce_broker")) needs.add("name");
  if (asks("pars", "cpe_monitor")) needs.add("birth");
  if (asks("cpe_monitor")) needs.add("nabpEpid");
  return IDENTIFIER_NEEDS.filter((n) => needs.has(n));
}

/** Whether the learner's identifiers meet what a claim asks. */
export function isNeedMet(need: IdentifierNeed, ids: Identifiers): boolean {
  const reported = regulatorIdsOf(ids);
  const stateLicence = Boolean(reported.licenceState && reported.licenceNumber);
  switch (need) {
    case "licence":
      return hasLicenceOnFile(ids);
    case "stateLicence":
      return stateLicence;
    case "licenceOrBoard":
      return stateLicence || Boolean(ids.certifyingBoard && ids.boardId);
    case "name":
      return Boolean(ids.firstName && ids.lastName);
    case "birth":
      return (
        ids.birthMonth !== null &&
        ids.birthDay !== null &&
        isRealBirthDay(ids.birthMonth, ids.birthDay)
      );
    case "profession":
      return Boolean(ids.profession);
    case "nabpEpid":
      return isValidEpid(ids.nabpEpid);
  }
}
