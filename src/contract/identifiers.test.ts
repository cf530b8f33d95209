import { describe, expect, it } from "vitest";
import {
  certificateLicenceOf,
  EMPTY_IDENTIFIERS,
  hasLicenceOnFile,
  type Identifiers,
  identifierNeeds,
  identifiersBodySchema,
  isNeedMet,
  licenceBodySchema,
  licenceEntryOf,
  regulatorIdsOf,
  stateCodeOf,
} from "./identifiers";
import { IDENTIFIER_MESSAGES, missingRegulatorIds } from "./regulator-ids";
import { REGULATORS } from "./reporting-activity";

const ids = (extra: Partial<Identifiers>): Identifiers => ({ ...EMPTY_IDENTIFIERS, ...extra });
const OREGON_MD = { licenceType: "MD", licenceState: "OR", licenceNumber: "MD204518" };

/** The messages a body is refused with, by field. */
function refusals(body: object): Record<string, string> {
  const parsed = identifiersBodySchema.safeParse(body);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message]));
}

describe("the learner's identifiers", () => {
  it("reads a state by its code or its name, as whole words, the longest name first", () => {
    expect(stateCodeOf("or")).toBe("OR");
    expect(stateCodeOf(" Pennsylvania ")).toBe("PA");
    expect(stateCodeOf("California Board of Accountancy")).toBe("CA");
    expect(stateCodeOf("West Virginia Board of Nursing")).toBe("WV");
    expect(stateCodeOf("Virginia Board of Medicine")).toBe("VA");
    // "Kansas" is not a word of "Arkansas".
    expect(stateCodeOf("Arkansas State Medical Board")).toBe("AR");
    expect(stateCodeOf("Ontario")).toBe("");
    expect(stateCodeOf("")).toBe("");
  });

  it("holds a licence's number and state together, and lists each licence once", () => {
    expect(refusals({ licences: [OREGON_MD] })).toEqual({});
    expect(refusals({ licences: [{ ...OREGON_MD, licenceState: "" }] })).toEqual({
      "licences.0.licenceState": IDENTIFIER_MESSAGES.licencePair,
    });
    expect(refusals({ licences: [{ ...OREGON_MD, licenceNumber: "" }] })).toEqual({
      "licences.0.licenceNumber": IDENTIFIER_MESSAGES.licencePair,
    });
    expect(
      refusals({ licences: [OREGON_MD, { ...OREGON_MD, licenceNumber: "md204518" }] }),
    ).toEqual({ "licences.1.licenceNumber": "This licence is listed twice" });
    // The same number in another state is another licence.
    expect(refusals({ licences: [OREGON_MD, { ...OREGON_MD, licenceState: "WA" }] })).toEqual({});
    expect(
      identifiersBodySchema.parse({ licences: [{ ...OREGON_MD, licenceState: " or " }] }).licences,
    ).toEqual([OREGON_MD]);
  });

  it("changes only what a save names, the birth date and the board each named whole", () => {
    expect(identifiersBodySchema.parse({ npi: "1234567893" })).toEqual({ npi: "1234567893" });
    expect(refusals({ birthMonth: 2 })).toEqual({ birthDay: IDENTIFIER_MESSAGES.birthPair });
    expect(refusals({ birthMonth: 2, birthDay: 29 })).toEqual({});
    expect(refusals({ birthMonth: 2, birthDay: 30 })).toEqual({
      birthDay: IDENTIFIER_MESSAGES.birthDay,
    });
    expect(refusals({ birthMonth: null, birthDay: null })).toEqual({});
    expect(refusals({ boardId: "778899" })).toEqual({
      certifyingBoard: IDENTIFIER_MESSAGES.boardPair,
    });
    expect(refusals({ certifyingBoard: "ABIM", boardId: "" })).toEqual({
      boardId: IDENTIFIER_MESSAGES.boardPair,
    });
    expect(refusals({ userId: "someone-else" })).toEqual({ "": expect.any(String) });
  });

  it("reads a licence given as one licence, its state by code and a board kept with the type", () => {
    const one = (licenceState: string) =>
      licenceEntryOf(
        licenceBodySchema.parse({
          licenceType: "CPA",
          licenceNumber: "CPA-048213",
          licenceState,
          npn: "",
        }),
      );
    expect(one("Pennsylvania")).toEqual({
      licenceType: "CPA",
      licenceState: "PA",
      licenceNumber: "CPA-048213",
    });
    expect(one("pa")).toMatchObject({ licenceType: "CPA", licenceState: "PA" });
    expect(one("California Board of Accountancy")).toEqual({
      licenceType: "CPA, California Board of Accountancy",
      licenceState: "CA",
      licenceNumber: "CPA-048213",
    });
    expect(
      licenceBodySchema.safeParse({
        licenceType: "RN",
        licenceNumber: "1",
        licenceState: "Ontario",
        npn: "",
      }).error?.issues[0],
    ).toMatchObject({ path: ["licenceState"], message: IDENTIFIER_MESSAGES.licenceStateNamed });
    expect(
      licenceEntryOf({ licenceType: "", licenceNumber: "", licenceState: "", npn: "8812345" }),
    ).toBeNull();
  });

  it("prints the first licence with a state and the NPN; a licence number or an NPN is a licence on file", () => {
    const legacy = { licenceType: "CPA", licenceState: "", licenceNumber: "C-1" };
    const two = ids({ licences: [legacy, OREGON_MD], npn: "8812345" });
    expect(certificateLicenceOf(two)).toEqual({ ...OREGON_MD, npn: "8812345" });
    expect(certificateLicenceOf(ids({ licences: [legacy] }))).toEqual({ ...legacy, npn: "" });
    expect(certificateLicenceOf(EMPTY_IDENTIFIERS)).toBeNull();
    expect(hasLicenceOnFile(ids({ licences: [OREGON_MD] }))).toBe(true);
    expect(hasLicenceOnFile(ids({ npn: "8812345" }))).toBe(true);
    // An NPI, or a licence type with no number, is not a licence.
    expect(hasLicenceOnFile(ids({ npi: "1234567893" }))).toBe(false);
    expect(hasLicenceOnFile(ids({ licences: [{ ...legacy, licenceNumber: "" }] }))).toBe(false);
    expect(regulatorIdsOf(two)).toMatchObject({ licenceState: "OR", licenceNumber: "MD204518" });
  });

  it("asks of a claim exactly what its regulators hold it to, and a licence where a type requires one", () => {
    const records = [
      EMPTY_IDENTIFIERS,
      ids({ firstName: "Ada", lastName: "Byron", birthMonth: 2, birthDay: 29 }),
      ids({
        firstName: "Ada",
        lastName: "Byron",
        birthMonth: 2,
        birthDay: 29,
        licences: [OREGON_MD],
      }),
      ids({
        firstName: "Ada",
        lastName: "Byron",
        birthMonth: 2,
        birthDay: 29,
        certifyingBoard: "ABIM",
        boardId: "778899",
      }),
      ids({ firstName: "Cleo", lastName: "Nurse", licences: [OREGON_MD], profession: "RN" }),
      ids({ birthMonth: 12, birthDay: 9, nabpEpid: "1234567" }),
      ids({ birthMonth: 12, birthDay: 9, nabpEpid: "12345678" }),
    ];
    for (const regulator of REGULATORS) {
      for (const record of records) {
        const asked = identifierNeeds([regulator], false).filter((n) => !isNeedMet(n, record));
        const refused = missingRegulatorIds(regulator, regulatorIdsOf(record));
        expect(asked.length === 0, `${regulator} ${JSON.stringify(record)}`).toBe(
          refused.length === 0,
        );
      }
    }
    expect(identifierNeeds([], true)).toEqual(["licence"]);
    expect(identifierNeeds([], false)).toEqual([]);
    expect(identifierNeeds(["ce_broker", "pars"], true)).toEqual([
      "licence",
      "stateLicence",
      "name",
      "birth",
      "profession",
    ]);
  });
});
