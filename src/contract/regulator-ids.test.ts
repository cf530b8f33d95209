import { describe, expect, it } from "vitest";
import {
  EMPTY_REGULATOR_IDS,
  IDENTIFIER_MESSAGES,
  isRealBirthDay,
  isValidCeBrokerCourse,
  isValidEpid,
  isValidNpi,
  isValidParsActivityId,
  isValidUan,
  missingRegulatorIds,
  type RegulatorIdsInput,
  regulatorIdsBodySchema,
} from "./regulator-ids";

const BLANK: RegulatorIdsInput = { ...EMPTY_REGULATOR_IDS, certifyingBoard: "" };

/** The messages a body is refused with, by field. */
function refusals(body: Partial<RegulatorIdsInput>): Record<string, string> {
  const parsed = regulatorIdsBodySchema.safeParse({ ...BLANK, ...body });
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message]));
}

describe("the identifiers' published rules", () => {
  // CMS, "Requirements for Constructing the National Provider Identifier (NPI) Check Digit":
  // the Luhn formula over the first nine digits with the prefix 80840; its worked example is
  // 123456789 with check digit 3.
  it("takes an NPI whose last digit is its Luhn check digit with the prefix 80840", () => {
    expect(isValidNpi("1234567893")).toBe(true);
    expect(isValidNpi("1245319599")).toBe(true);
    // A wrong check digit, one digit typed wrong, two digits swapped.
    expect(isValidNpi("1234567890")).toBe(false);
    expect(isValidNpi("1234567883")).toBe(false);
    expect(isValidNpi("2134567893")).toBe(false);
    // Wrong length, and what is not digits.
    expect(isValidNpi("123456789")).toBe(false);
    expect(isValidNpi("12345678930")).toBe(false);
    expect(isValidNpi("12345-7893")).toBe(false);
    expect(refusals({ npi: "1234567890" })).toEqual({ npi: IDENTIFIER_MESSAGES.npi });
    expect(refusals({ npi: "123456789" })).toEqual({ npi: IDENTIFIER_MESSAGES.npi });
    // Full-width digits and stray spaces are the same NPI once normalised.
    expect(regulatorIdsBodySchema.parse({ ...BLANK, npi: " １２３４５６７８９３ " }).npi).toBe(
      "1234567893",
    );
  });

  it("takes an NABP e-Profile ID of 6 or 7 digits", () => {
    expect(isValidEpid("123456")).toBe(true);
    expect(isValidEpid("1234567")).toBe(true);
    expect(isValidEpid("12345")).toBe(false);
    expect(isValidEpid("12345678")).toBe(false);
    expect(isValidEpid("12345a")).toBe(false);
    expect(refusals({ nabpEpid: "12345678" })).toEqual({ nabpEpid: IDENTIFIER_MESSAGES.nabpEpid });
  });

  it("takes a month and day of birth that exist, 29 February among them", () => {
    expect(isRealBirthDay(2, 29)).toBe(true);
    expect(isRealBirthDay(12, 31)).toBe(true);
    expect(isRealBirthDay(2, 30)).toBe(false);
    expect(isRealBirthDay(4, 31)).toBe(false);
    expect(isRealBirthDay(13, 1)).toBe(false);
    expect(refusals({ birthMonth: 2, birthDay: 29 })).toEqual({});
    expect(refusals({ birthMonth: 2, birthDay: 30 })).toEqual({
      birthDay: IDENTIFIER_MESSAGES.birthDay,
    });
    expect(refusals({ birthMonth: 4, birthDay: 31 })).toEqual({
      birthDay: IDENTIFIER_MESSAGES.birthDay,
    });
    // Half a date is not one.
    expect(refusals({ birthMonth: 4, birthDay: null })).toEqual({
      birthDay: IDENTIFIER_MESSAGES.birthPair,
    });
  });

  it("holds licences, boards and the activity identifiers to their forms", () => {
    expect(refusals({ licenceState: "or", licenceNumber: "MD-204518" })).toEqual({});
    expect(
      regulatorIdsBodySchema.parse({ ...BLANK, licenceState: "or", licenceNumber: "X1" }),
    ).toMatchObject({ licenceState: "OR" });
    expect(refusals({ licenceState: "ZZ", licenceNumber: "1" })).toEqual({
      licenceState: IDENTIFIER_MESSAGES.licenceState,
    });
    expect(refusals({ licenceNumber: "MD-204518" })).toEqual({
      licenceState: IDENTIFIER_MESSAGES.licencePair,
    });
    expect(refusals({ certifyingBoard: "ABIM" })).toEqual({
      boardId: IDENTIFIER_MESSAGES.boardPair,
    });
    expect(isValidParsActivityId("201234567")).toBe(true);
    expect(isValidParsActivityId("PARS-1")).toBe(false);
    expect(isValidCeBrokerCourse("20-845123")).toBe(true);
    expect(isValidCeBrokerCourse("50-845123")).toBe(false);
    expect(isValidUan("0197-0000-26-105-H01-P")).toBe(true);
    expect(isValidUan("0197-0000-26-105-X01-P")).toBe(false);
    expect(isValidUan("0197-0000-26-105-H01")).toBe(false);
  });

  it("says what each regulator still needs of the learner", () => {
    const physician = {
      ...EMPTY_REGULATOR_IDS,
      firstName: "Ada",
      lastName: "Byron",
      birthMonth: 12,
      birthDay: 10,
    };
    expect(missingRegulatorIds("pars", physician)).toEqual([
      "state licence or certifying board ID",
    ]);
    expect(
      missingRegulatorIds("pars", { ...physician, certifyingBoard: "ABIM", boardId: "123456" }),
    ).toEqual([]);
    expect(
      missingRegulatorIds("pars", { ...physician, licenceState: "OR", licenceNumber: "MD1" }),
    ).toEqual([]);
    expect(missingRegulatorIds("ce_broker", physician)).toEqual([
      "licence number and state",
      "profession",
    ]);
    expect(missingRegulatorIds("cpe_monitor", physician)).toEqual(["NABP e-Profile ID"]);
    expect(missingRegulatorIds("cpe_monitor", { ...physician, nabpEpid: "1234567" })).toEqual([]);
    expect(missingRegulatorIds("pars", EMPTY_REGULATOR_IDS)).toEqual([
      "first name",
      "last name",
      "month and day of birth",
      "state licence or certifying board ID",
    ]);
  });
});
