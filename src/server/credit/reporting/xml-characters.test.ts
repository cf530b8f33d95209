import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
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
const PARS_FILES = "/api/admin/reports/regulators/pars/files";

/**
 * The characters of a text that XML 1.0 forbids (its Char production: tab, line feed,
 * carriage return, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF): a document holding one
 * is not well-formed, and a strict reader (Excel, CE Broker's parser) refuses it whole.
 */
const NOT_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
function xmlError(text: string): string | null {
  const bad = text.match(NOT_XML_CHARS);
  return bad
    ? `characters XML forbids: ${bad.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(", ")}`
    : null;
}

describe("characters XML cannot hold in learners' names", () => {
  const { ctx, setup } = useCreditClaim();

  const putReporting = (cookie: string, courseId: string, payload: unknown) =>
    call(ctx, "PUT", `/api/courses/${courseId}/reporting`, { cookie, payload });

  // U+FFFF survives normalizeIdentifier (it is neither a control nor a default-ignorable
  // character) but XML 1.0 forbids it: the roster and the workbook must still be well-formed
  // (the name refused when saved, or the claim listed apart), not broken for every learner.
  const NAME = "Florence\uFFFF";

  it("keeps the CE Broker roster well-formed XML whatever a learner typed as a name", async () => {
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
    const user = await quickLearner(ctx, { name: "Florence Nightingale" });
    const cookie = await signInAs(ctx, user);
    await enrollViaApi(ctx, admin, user.id, s.course.id);
    await completeViaApi(ctx, cookie, user.id, s.course, 1);
    const ids = await call(ctx, "PUT", "/api/me/regulator-ids", {
      cookie,
      payload: {
        ...PHYSICIAN,
        firstName: NAME,
        lastName: "Nightingale",
        licenceState: "FL",
        licenceNumber: "RN9876543",
        profession: "RN",
      },
    });
    if (ids.statusCode === 400) return; // refused when typed: mended
    expect(ids.statusCode, ids.body).toBe(200);
    const attested = await call(ctx, "POST", s.url("attest"), {
      cookie,
      payload: {
        statement: STATEMENT,
        claims: [{ creditTypeId: contact, amount: null }],
        reportingConsent: true,
      },
    });
    expect(attested.statusCode, attested.body).toBe(200);
    const files = "/api/admin/reports/regulators/ce_broker/files";
    const made = await call(ctx, "POST", files, {
      cookie: admin,
      payload: { courseId: s.course.id, from: today(), to: today() },
    });
    if (made.statusCode === 409) return; // nothing written, the claim listed apart: mended
    expect(made.statusCode, made.body).toBe(200);
    await call(ctx, "PUT", "/api/admin/reports/regulators/ce_broker/connection", {
      cookie: admin,
      payload: { parentProviderId: "1234", uploadKey: "KEY1" },
    });
    const download = await call(ctx, "GET", `${files}/${(made.json() as ReportFile).id}/download`, {
      cookie: admin,
    });
    expect(download.statusCode).toBe(200);
    expect(xmlError(download.rawPayload.toString("utf8"))).toBeNull();
  });

  it("keeps the PARS learner workbook's XML well-formed whatever a learner typed as a name", async () => {
    const s = await setup(ACTIVITY, 1, OFFER);
    const admin = s.adminCookie;
    const ama = s.types[0]!.id;
    const saved = await putReporting(admin, s.course.id, {
      types: [{ creditTypeId: ama, regulators: [{ regulator: "pars", activityId: "201234567" }] }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const user = await quickLearner(ctx, { name: "Ada Byron" });
    const cookie = await signInAs(ctx, user);
    await enrollViaApi(ctx, admin, user.id, s.course.id);
    await completeViaApi(ctx, cookie, user.id, s.course, 1);
    const ids = await call(ctx, "PUT", "/api/me/regulator-ids", {
      cookie,
      payload: { ...PHYSICIAN, lastName: NAME },
    });
    if (ids.statusCode === 400) return;
    expect(ids.statusCode, ids.body).toBe(200);
    const attested = await call(ctx, "POST", s.url("attest"), {
      cookie,
      payload: {
        statement: STATEMENT,
        claims: [{ creditTypeId: ama, amount: null }],
        reportingConsent: true,
      },
    });
    expect(attested.statusCode, attested.body).toBe(200);
    const made = await call(ctx, "POST", PARS_FILES, {
      cookie: admin,
      payload: { courseId: s.course.id, from: today(), to: today() },
    });
    if (made.statusCode === 409) return;
    expect(made.statusCode, made.body).toBe(200);
    const download = await call(
      ctx,
      "GET",
      `${PARS_FILES}/${(made.json() as ReportFile).id}/download`,
      { cookie: admin },
    );
    const zip = XLSX.CFB.read(download.rawPayload, { type: "buffer" });
    const errors: Record<string, string | null> = {};
    zip.FullPaths.forEach((name: string, i: number) => {
      if (!name.endsWith(".xml")) return;
      errors[name] = xmlError(
        Buffer.from(zip.FileIndex[i]!.content as Uint8Array).toString("utf8"),
      );
    });
    expect(Object.values(errors).filter(Boolean), JSON.stringify(errors)).toEqual([]);
  });
});
