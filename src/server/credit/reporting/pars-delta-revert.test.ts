import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import {
  EMPTY_REGULATOR_IDS,
  type RegulatorIdsInput,
  type ReportClaim,
  type ReportFile,
} from "../../../contract";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import { call, completeViaApi, enrollViaApi, quickLearner, signInAs } from "../../testing/learning";

const ACTIVITY = accme({ evaluationRequired: false, acknowledgementRequired: false });
const OFFER = creditOffer(
  [
    creditType({ claimStep: null, amount: 1.5 }),
    creditType({ name: "contact hours", accreditingBody: "ANCC", claimStep: null, amount: 1 }),
  ],
  { ACCME: "PN-1", ANCC: "P-2" },
);
const PHYSICIAN: RegulatorIdsInput = {
  ...EMPTY_REGULATOR_IDS,
  certifyingBoard: "",
  firstName: "Ada",
  lastName: "Byron",
  birthMonth: 2,
  birthDay: 29,
  licenceState: "OR",
  licenceNumber: "MD204518",
  npi: "1234567893",
};
const today = () => new Date().toISOString().slice(0, 10);
const PARS_FILES = "/api/admin/reports/regulators/pars/files";

const records = (bytes: Buffer) => {
  const book = XLSX.read(bytes, { type: "buffer" });
  return XLSX.utils
    .sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, {
      header: 1,
      raw: false,
      defval: "",
    })
    .slice(2);
};

describe("a PARS delta after an activity ID is put back", () => {
  const { ctx, setup } = useCreditClaim();

  const putReporting = (cookie: string, courseId: string, payload: unknown) =>
    call(ctx, "PUT", `/api/courses/${courseId}/reporting`, { cookie, payload });

  async function learnerClaims(
    s: Awaited<ReturnType<typeof setup>>,
    typeId: string,
    name: string,
    ids: RegulatorIdsInput,
  ) {
    const user = await quickLearner(ctx, { name });
    const cookie = await signInAs(ctx, user);
    await enrollViaApi(ctx, s.adminCookie, user.id, s.course.id);
    await completeViaApi(ctx, cookie, user.id, s.course, 1);
    const saved = await call(ctx, "PUT", "/api/me/regulator-ids", { cookie, payload: ids });
    expect(saved.statusCode, saved.body).toBe(200);
    const attested = await call(ctx, "POST", s.url("attest"), {
      cookie,
      payload: {
        statement: STATEMENT,
        claims: [{ creditTypeId: typeId, amount: null }],
        reportingConsent: true,
      },
    });
    expect(attested.statusCode, attested.body).toBe(200);
    return { user, cookie };
  }

  it("a PARS activity ID corrected and then put back reports the claim again under the ID it stands under", async () => {
    const s = await setup(ACTIVITY, 1, OFFER);
    const ama = s.types[0]!.id;
    const admin = s.adminCookie;
    const setId = async (activityId: string) => {
      const r = await putReporting(admin, s.course.id, {
        types: [{ creditTypeId: ama, regulators: [{ regulator: "pars", activityId }] }],
      });
      expect(r.statusCode, r.body).toBe(200);
    };
    await setId("201234567");
    await learnerClaims(s, ama, "Ada Byron", PHYSICIAN);
    const range = { courseId: s.course.id, from: today(), to: today() };
    const generate = () => call(ctx, "POST", PARS_FILES, { cookie: admin, payload: range });
    const submit = async (id: string) =>
      expect(
        (await call(ctx, "POST", `${PARS_FILES}/${id}/submit`, { cookie: admin })).statusCode,
      ).toBe(200);
    const download = async (id: string) =>
      records(
        (await call(ctx, "GET", `${PARS_FILES}/${id}/download`, { cookie: admin })).rawPayload,
      );

    // File 1: Add under 201234567, uploaded.
    const first = (await generate()).json() as ReportFile;
    await submit(first.id);
    // Corrected to 201234568: Delete the old row, Add under the new ID, uploaded.
    await setId("201234568");
    const second = (await generate()).json() as ReportFile;
    expect((await download(second.id)).map((r) => [r[0], r[1]])).toEqual([
      ["Delete", "201234567"],
      ["Add", "201234568"],
    ]);
    await submit(second.id);
    // PARS now holds the completion under 201234568 only. The correction was itself a
    // mistake: the administrator puts the first ID back.
    await setId("201234567");
    const claims = (
      await call(ctx, "GET", `/api/admin/reports/regulators/pars/claims?courseId=${s.course.id}`, {
        cookie: admin,
      })
    ).json() as ReportClaim[];
    // The row as it stands (201234567) was deleted from PARS by file 2: it is not reported.
    expect(claims.map((c) => c.status)).toEqual(["changed"]);
    const third = await generate();
    expect(third.statusCode, third.body).toBe(200);
    expect((await download((third.json() as ReportFile).id)).map((r) => [r[0], r[1]])).toEqual([
      ["Delete", "201234568"],
      ["Add", "201234567"],
    ]);
  });
});
