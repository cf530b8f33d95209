import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { EMPTY_REGULATOR_IDS, type RegulatorIdsInput, type ReportFile } from "../../../contract";
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

describe("a CE Broker roster download", () => {
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

  it("writes a CE Broker upload key holding a $ into the roster as it was saved", async () => {
    const s = await setup(ACTIVITY, 1, OFFER);
    const admin = s.adminCookie;
    const contact = s.types[1]!.id;
    const saved = await putReporting(admin, s.course.id, {
      types: [
        {
          creditTypeId: contact,
          regulators: [
            {
              regulator: "ce_broker",
              activityId: "20-845123",
              providerId: "50-1234",
              details: { providerCode: "77", subjectArea: "GEN-1" },
            },
          ],
        },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await learnerClaims(s, contact, "Florence Nightingale", {
      ...PHYSICIAN,
      firstName: "Florence",
      lastName: "Nightingale",
      licenceState: "FL",
      licenceNumber: "RN9876543",
      profession: "RN",
    });
    const files = "/api/admin/reports/regulators/ce_broker/files";
    const made = await call(ctx, "POST", files, {
      cookie: admin,
      payload: { courseId: s.course.id, from: today(), to: today() },
    });
    expect(made.statusCode, made.body).toBe(200);
    const key = "Kx$'9$&z";
    const connected = await call(ctx, "PUT", "/api/admin/reports/regulators/ce_broker/connection", {
      cookie: admin,
      payload: { parentProviderId: "1234", uploadKey: key },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const download = await call(ctx, "GET", `${files}/${(made.json() as ReportFile).id}/download`, {
      cookie: admin,
    });
    expect(download.statusCode).toBe(200);
    const text = download.rawPayload.toString("utf8");
    expect(XMLValidator.validate(text)).toBe(true);
    const rosters = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(
      text,
    ).rosters;
    expect(rosters["@upload_key"]).toBe(key);
  });
});
