import { describe, expect, it } from "vitest";
import {
  type Certificate,
  type Completion,
  EMPTY_IDENTIFIERS,
  EMPTY_REGULATOR_IDS,
  IDENTIFIER_MESSAGES,
  type Identifiers,
  type IdentifiersInput,
  identifierNeeds,
  isNeedMet,
  type MyRegulatorIds,
} from "../../../contract";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import { call, completeViaApi, enrollViaApi, quickLearner, signInAs } from "../../testing/learning";
import { attestationCredits } from "../attestations/attestations.table";

const PARS_ID = "201234567";
/** AMA credit that requires the learner's licence and reports to ACCME PARS. */
const OFFER = creditOffer([creditType({ claimStep: null, amount: 1, licenceRequired: true })], {
  ACCME: "PN-1",
});
const ACTIVITY = accme({ evaluationRequired: false, acknowledgementRequired: false });
const CONSENT =
  "I agree that Credo reports my completion of this activity to ACCME PARS with the identifiers I have given.";
/** What a physician gives: a licence, an NPI, a name as the board knows it, a birth date. */
const PHYSICIAN = {
  licences: [{ licenceType: "MD", licenceState: "or", licenceNumber: "MD204518" }],
  npi: "1234567893",
  firstName: "Ada",
  lastName: "Byron",
  birthMonth: 2,
  birthDay: 29,
} satisfies IdentifiersInput;
const STORED: Identifiers = {
  ...EMPTY_IDENTIFIERS,
  ...PHYSICIAN,
  licences: [{ licenceType: "MD", licenceState: "OR", licenceNumber: "MD204518" }],
};

describe("one set of professional identifiers", () => {
  const { ctx, setup, certificatesOf } = useCreditClaim();

  /** The course, its AMA type reporting to PARS, the learner through its modules. */
  async function readyToAttest() {
    const s = await setup(ACTIVITY, 1, OFFER);
    const reported = await call(ctx, "PUT", s.url("reporting"), {
      cookie: s.adminCookie,
      payload: {
        types: [
          {
            creditTypeId: s.types[0]!.id,
            regulators: [{ regulator: "pars", activityId: PARS_ID }],
          },
        ],
      },
    });
    expect(reported.statusCode, reported.body).toBe(200);
    await completeViaApi(ctx, s.cookie, s.learner.id, s.course, 1);
    const attest = (extra: object = {}, cookie = s.cookie) =>
      call(ctx, "POST", s.url("attest"), {
        cookie,
        payload: {
          statement: STATEMENT,
          claims: [{ creditTypeId: s.types[0]!.id, amount: null }],
          reportingConsent: true,
          ...extra,
        },
      });
    const mine = async (cookie = s.cookie) =>
      (await call(ctx, "GET", "/api/me/identifiers", { cookie })).json() as Identifiers;
    return { ...s, attest, mine };
  }

  it("saves what the attestation asked into the record: the profile shows it and the certificate issues without asking again", async () => {
    const s = await readyToAttest();
    expect(await s.mine()).toEqual(EMPTY_IDENTIFIERS);
    // Before attesting, the claim asks for the licence and what PARS matches a physician by.
    const needs = identifierNeeds(["pars"], true);
    expect(needs).toEqual(["licence", "licenceOrBoard", "name", "birth"]);
    const before = await s.mine();
    expect(needs.filter((n) => !isNeedMet(n, before))).toEqual(needs);

    // An identifier that breaks its rule is refused with the attestation: nothing is saved.
    const wrongNpi = await s.attest({ identifiers: { ...PHYSICIAN, npi: "1234567890" } });
    expect(wrongNpi.statusCode).toBe(400);
    expect(wrongNpi.json()).toEqual({
      code: "validation.invalid_body",
      path: "identifiers.npi",
      message: IDENTIFIER_MESSAGES.npi,
    });
    // A refused attestation (no consent) keeps nothing of what came with it either.
    const unconsented = await s.attest({ identifiers: PHYSICIAN, reportingConsent: false });
    expect(unconsented.json()).toMatchObject({ code: "attestation.reporting_consent_required" });
    expect(await s.mine()).toEqual(EMPTY_IDENTIFIERS);

    const attested = await s.attest({ identifiers: PHYSICIAN });
    expect(attested.statusCode, attested.body).toBe(200);

    // The profile shows them, in every view of the record.
    expect(await s.mine()).toEqual(STORED);
    expect((await call(ctx, "GET", "/api/profile/licence", { cookie: s.cookie })).json()).toEqual({
      licenceType: "MD",
      licenceNumber: "MD204518",
      licenceState: "OR",
      npn: "",
    });
    const regulatorIds = (
      await call(ctx, "GET", `/api/me/regulator-ids?courseId=${s.course.id}`, { cookie: s.cookie })
    ).json() as MyRegulatorIds;
    expect(regulatorIds.ids).toMatchObject({ licenceState: "OR", licenceNumber: "MD204518" });

    // The certificate's licence rule was met by the same record: issued with the attestation.
    const completion = await call(ctx, "GET", s.url("completion"), { cookie: s.cookie });
    expect(completion.json() as Completion).toMatchObject({ isCompleted: true, next: null });
    const [certificate] = (await certificatesOf(s.cookie)) as [Certificate];
    expect(certificate.credit!.licence).toEqual({
      licenceType: "MD",
      licenceNumber: "MD204518",
      licenceState: "OR",
      npn: "",
    });
    // The claim copied what PARS is sent.
    const [claim] = await ctx.database.db.select().from(attestationCredits);
    expect(claim!.regulatorIds).toMatchObject({
      regulators: ["pars"],
      ids: { firstName: "Ada", npi: "1234567893", licenceState: "OR", licenceNumber: "MD204518" },
      consent: CONSENT,
    });

    // Changing them later changes the record, never the claim or the certificate.
    const changed = await call(ctx, "PATCH", "/api/me/identifiers", {
      cookie: s.cookie,
      payload: { lastName: "Lovelace" },
    });
    expect(changed.json()).toEqual({ ...STORED, lastName: "Lovelace" });
    const [kept] = await ctx.database.db.select().from(attestationCredits);
    expect(kept!.regulatorIds).toEqual(claim!.regulatorIds);
  });

  it("asks nothing at the attestation for what the profile already holds", async () => {
    const s = await readyToAttest();
    const saved = await call(ctx, "PATCH", "/api/me/identifiers", {
      cookie: s.cookie,
      payload: PHYSICIAN,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(STORED);
    const mine = await s.mine();
    expect(identifierNeeds(["pars"], true).filter((n) => !isNeedMet(n, mine))).toEqual([]);

    // The attestation carries no identifiers, and the certificate issues with it.
    const attested = await s.attest();
    expect(attested.statusCode, attested.body).toBe(200);
    const [certificate] = await certificatesOf(s.cookie);
    expect(certificate!.credit!.licence).toMatchObject({ licenceNumber: "MD204518" });
  });

  it("completes a course that waited for the licence once the profile gives it", async () => {
    const s = await readyToAttest();
    // A physician matched by their board: PARS needs no licence, the credit type does.
    const board = { ...PHYSICIAN, licences: [], certifyingBoard: "ABIM", boardId: "778899" };
    expect((await s.attest({ identifiers: board })).statusCode).toBe(200);
    expect(await certificatesOf(s.cookie)).toEqual([]);
    expect((await s.mine()).boardId).toBe("778899");

    // The licence given in the profile, into the same record, releases the certificate.
    const saved = await call(ctx, "PATCH", "/api/me/identifiers", {
      cookie: s.cookie,
      payload: { licences: PHYSICIAN.licences },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await s.mine()).toMatchObject({ boardId: "778899", licences: STORED.licences });
    expect(await certificatesOf(s.cookie)).toHaveLength(1);
  });

  it("holds each identifier to its rule, in the learner's words, and saves nothing refused", async () => {
    const s = await readyToAttest();
    await call(ctx, "PATCH", "/api/me/identifiers", { cookie: s.cookie, payload: PHYSICIAN });
    const patch = (payload: object) =>
      call(ctx, "PATCH", "/api/me/identifiers", { cookie: s.cookie, payload });
    const licence = (extra: object) => ({
      licences: [{ licenceType: "RN", licenceState: "FL", licenceNumber: "RN-1", ...extra }],
    });
    for (const [payload, path, message] of [
      [{ npi: "1234567890" }, "npi", IDENTIFIER_MESSAGES.npi],
      [{ npi: "12345" }, "npi", IDENTIFIER_MESSAGES.npi],
      [{ nabpEpid: "12a456" }, "nabpEpid", IDENTIFIER_MESSAGES.nabpEpid],
      [{ birthMonth: 2, birthDay: 30 }, "birthDay", IDENTIFIER_MESSAGES.birthDay],
      [{ birthMonth: 4, birthDay: 31 }, "birthDay", IDENTIFIER_MESSAGES.birthDay],
      [{ birthMonth: 4 }, "birthDay", IDENTIFIER_MESSAGES.birthPair],
      [{ birthMonth: 4, birthDay: null }, "birthDay", IDENTIFIER_MESSAGES.birthPair],
      [licence({ licenceState: "" }), "licences.0.licenceState", IDENTIFIER_MESSAGES.licencePair],
      [licence({ licenceNumber: "" }), "licences.0.licenceNumber", IDENTIFIER_MESSAGES.licencePair],
      [
        licence({ licenceState: "ZZ" }),
        "licences.0.licenceState",
        IDENTIFIER_MESSAGES.licenceState,
      ],
      [
        licence({ licenceNumber: "=HYPERLINK(1)" }),
        "licences.0.licenceNumber",
        IDENTIFIER_MESSAGES.licenceNumber,
      ],
      [
        { licences: [...licence({}).licences, ...licence({ licenceNumber: "rn-1" }).licences] },
        "licences.1.licenceNumber",
        "This licence is listed twice",
      ],
      [{ certifyingBoard: "ABIM" }, "boardId", IDENTIFIER_MESSAGES.boardPair],
      [{ npn: "12-34" }, "npn", "An NPN is up to 10 digits"],
      // Invisible characters alone are refused, never stored as a value cleared unseen.
      [{ npi: "\u200b\u200b" }, "npi", IDENTIFIER_MESSAGES.npi],
      [{ firstName: "\u3164" }, "firstName", "A name must show letters"],
    ] as const) {
      const refused = await patch(payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json(), JSON.stringify(payload)).toEqual({
        code: "validation.invalid_body",
        path,
        message,
      });
    }
    // A number keeps its form once normalised: full-width digits, stray spaces.
    const normalised = await patch({ npi: " １２３４５６７８９３ ", nabpEpid: "1234567" });
    expect(normalised.json()).toMatchObject({ npi: "1234567893", nabpEpid: "1234567" });
    expect(await s.mine()).toEqual({ ...STORED, nabpEpid: "1234567" });
  });

  it("keeps each learner's identifiers their own: another learner can never read or change them", async () => {
    const s = await readyToAttest();
    await call(ctx, "PATCH", "/api/me/identifiers", { cookie: s.cookie, payload: PHYSICIAN });
    const other = await quickLearner(ctx, { name: "Eve Other" });
    const otherCookie = await signInAs(ctx, other);
    await enrollViaApi(ctx, s.adminCookie, other.id, s.course.id);
    await completeViaApi(ctx, otherCookie, other.id, s.course, 1);

    // They read only their own, and no route names whose record it is.
    expect(await s.mine(otherCookie)).toEqual(EMPTY_IDENTIFIERS);
    expect(
      (await call(ctx, "GET", "/api/profile/licence", { cookie: otherCookie })).json(),
    ).toMatchObject({ licenceNumber: "" });
    const naming = await call(ctx, "PATCH", "/api/me/identifiers", {
      cookie: otherCookie,
      payload: { userId: s.learner.id, npi: "1245319599" },
    });
    expect(naming.statusCode).toBe(400);
    expect(
      (
        await call(ctx, "GET", `/api/me/identifiers?userId=${s.learner.id}`, {
          cookie: otherCookie,
        })
      ).json(),
    ).toEqual(EMPTY_IDENTIFIERS);

    // What they save, in the profile or with their attestation, is theirs alone.
    await call(ctx, "PATCH", "/api/me/identifiers", {
      cookie: otherCookie,
      payload: { npi: "1245319599", firstName: "Eve" },
    });
    const theirs = {
      ...PHYSICIAN,
      firstName: "Eve",
      lastName: "Other",
      licences: [{ licenceType: "DO", licenceState: "NY", licenceNumber: "DO-1" }],
    };
    expect((await s.attest({ identifiers: theirs }, otherCookie)).statusCode).toBe(200);
    expect(await s.mine()).toEqual(STORED);
    expect(await s.mine(otherCookie)).toMatchObject({ firstName: "Eve", npi: "1234567893" });

    // The record is the learner's: an administrator has none, and nobody signed out reads any.
    expect(
      (await call(ctx, "GET", "/api/me/identifiers", { cookie: s.adminCookie })).statusCode,
    ).toBe(403);
    expect((await call(ctx, "GET", "/api/me/identifiers")).statusCode).toBe(401);
    expect((await call(ctx, "PATCH", "/api/me/identifiers", { payload: {} })).statusCode).toBe(401);
  });

  it("keeps the one-licence views working on the same record", async () => {
    const s = await readyToAttest();
    await call(ctx, "PATCH", "/api/me/identifiers", {
      cookie: s.cookie,
      payload: {
        licences: [
          { licenceType: "MD", licenceState: "OR", licenceNumber: "MD204518" },
          { licenceType: "MD", licenceState: "WA", licenceNumber: "MD60123" },
        ],
      },
    });
    const putLicence = (payload: object) =>
      call(ctx, "PUT", "/api/profile/licence", {
        cookie: s.cookie,
        payload: { licenceType: "", licenceNumber: "", licenceState: "", npn: "", ...payload },
      });
    // The licence of the one-licence view takes the place of the first; a state written out
    // is kept by its code, a board beside it with the licence type.
    const board = await putLicence({
      licenceType: "CPA",
      licenceNumber: "CPA-048213",
      licenceState: "California Board of Accountancy",
    });
    expect(board.json()).toEqual({
      licenceType: "CPA, California Board of Accountancy",
      licenceNumber: "CPA-048213",
      licenceState: "CA",
      npn: "",
    });
    expect((await s.mine()).licences).toEqual([
      {
        licenceType: "CPA, California Board of Accountancy",
        licenceState: "CA",
        licenceNumber: "CPA-048213",
      },
      { licenceType: "MD", licenceState: "WA", licenceNumber: "MD60123" },
    ]);
    expect(
      (
        await putLicence({ licenceType: "DO", licenceNumber: "A-1", licenceState: "Pennsylvania" })
      ).json(),
    ).toEqual({ licenceType: "DO", licenceNumber: "A-1", licenceState: "PA", npn: "" });
    const nowhere = await putLicence({ licenceNumber: "A-1", licenceState: "Ontario" });
    expect(nowhere.json()).toEqual({
      code: "validation.invalid_body",
      path: "licenceState",
      message: IDENTIFIER_MESSAGES.licenceStateNamed,
    });
    const stateless = await putLicence({ licenceType: "RN", licenceNumber: "A-1" });
    expect(stateless.json()).toMatchObject({ path: "licenceState" });

    // The regulators' view: its state licence is the record's first one with a state, which
    // keeps its type while it names the same licence.
    const putRegulatorIds = (payload: object) =>
      call(ctx, "PUT", "/api/me/regulator-ids", {
        cookie: s.cookie,
        payload: { ...EMPTY_REGULATOR_IDS, firstName: "Ada", lastName: "Byron", ...payload },
      });
    const same = await putRegulatorIds({ licenceState: "pa", licenceNumber: "A-1" });
    expect(same.statusCode, same.body).toBe(200);
    expect((await s.mine()).licences[0]).toEqual({
      licenceType: "DO",
      licenceState: "PA",
      licenceNumber: "A-1",
    });
    expect(await s.mine()).toMatchObject({ firstName: "Ada", lastName: "Byron" });
    await putRegulatorIds({ licenceState: "NY", licenceNumber: "NY-9" });
    expect((await s.mine()).licences).toEqual([
      { licenceType: "", licenceState: "NY", licenceNumber: "NY-9" },
      { licenceType: "MD", licenceState: "WA", licenceNumber: "MD60123" },
    ]);
  });
});
