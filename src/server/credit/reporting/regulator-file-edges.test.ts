import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
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
import { mailServerDown, mailServerUp, outboxMessages } from "../../testing/mail";

const ACTIVITY = accme({ evaluationRequired: false, acknowledgementRequired: false });
/** AMA credit (reported to PARS) and nurses' contact hours (reported to CE Broker). */
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
const NURSE: RegulatorIdsInput = {
  ...PHYSICIAN,
  firstName: "Florence",
  lastName: "Nightingale",
  licenceState: "FL",
  licenceNumber: "RN9876543",
  profession: "RN",
};
const today = () => new Date().toISOString().slice(0, 10);
const FILES = (regulator: "pars" | "ce_broker") =>
  `/api/admin/reports/regulators/${regulator}/files`;

/**
 * The characters of a text that XML 1.0 forbids (its Char production: tab, line feed,
 * carriage return, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF): a document holding one
 * is not well-formed, and a strict reader (Excel, CE Broker's parser) refuses it whole.
 */
const NOT_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const forbiddenIn = (text: string) =>
  (text.match(NOT_XML_CHARS) ?? []).map((c) => `U+${c.codePointAt(0)!.toString(16)}`);

/** The PARS learner workbook's records (below its two header rows). */
const parsRecords = (bytes: Buffer) => {
  const book = XLSX.read(bytes, { type: "buffer" });
  return XLSX.utils
    .sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, {
      header: 1,
      raw: false,
      defval: "",
    })
    .slice(2);
};

describe("regulator reporting at its edges", () => {
  const { ctx, clock, setup } = useCreditClaim();

  /** The course with its AMA type reporting to PARS, or its contact hours to CE Broker. */
  async function reportingCourse(regulator: "pars" | "ce_broker", parsId = "201234567") {
    const s = await setup(ACTIVITY, 1, OFFER);
    const typeId = s.types[regulator === "pars" ? 0 : 1]!.id;
    const setReporting = async (activityId: string) => {
      const saved = await call(ctx, "PUT", `/api/courses/${s.course.id}/reporting`, {
        cookie: s.adminCookie,
        payload: {
          types: [
            {
              creditTypeId: typeId,
              regulators: [
                regulator === "pars"
                  ? { regulator, activityId }
                  : {
                      regulator,
                      activityId: "20-845123",
                      providerId: "50-1234",
                      details: { providerCode: "77", subjectArea: "GEN-1" },
                    },
              ],
            },
          ],
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    };
    await setReporting(parsId);
    /** A learner who completes, gives `ids` and claims the reported type. */
    const claimedBy = async (name: string, ids: RegulatorIdsInput) => {
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
    };
    const generate = () =>
      call(ctx, "POST", FILES(regulator), {
        cookie: s.adminCookie,
        payload: { courseId: s.course.id, from: today(), to: today() },
      });
    const download = async (file: ReportFile) =>
      (
        await call(ctx, "GET", `${FILES(regulator)}/${file.id}/download`, {
          cookie: s.adminCookie,
        })
      ).rawPayload;
    const connect = (uploadKey: string) =>
      call(ctx, "PUT", "/api/admin/reports/regulators/ce_broker/connection", {
        cookie: s.adminCookie,
        payload: { parentProviderId: "1234", uploadKey },
      });
    return { ...s, setReporting, claimedBy, generate, download, connect };
  }

  it("writes a CE Broker upload key holding a $ into the roster as it was saved", async () => {
    const course = await reportingCourse("ce_broker");
    await course.claimedBy("Florence Nightingale", NURSE);
    const made = await course.generate();
    expect(made.statusCode, made.body).toBe(200);
    const key = "Kx$'9$&z";
    expect((await course.connect(key)).statusCode).toBe(200);
    const text = (await course.download(made.json())).toString("utf8");
    expect(XMLValidator.validate(text)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(text);
    expect(parsed.rosters["@upload_key"]).toBe(key);
  });

  // U+FFFF is neither a control nor a default-ignorable character, but XML 1.0 forbids it: a
  // name holding it is kept without it, and the files stay well-formed for every learner.
  it("keeps the CE Broker roster well-formed XML whatever a learner typed as a name", async () => {
    const course = await reportingCourse("ce_broker");
    await course.claimedBy("Florence Nightingale", { ...NURSE, firstName: "Florence\uFFFF" });
    const made = await course.generate();
    expect(made.statusCode, made.body).toBe(200);
    expect((await course.connect("KEY1")).statusCode).toBe(200);
    const text = (await course.download(made.json())).toString("utf8");
    expect(forbiddenIn(text)).toEqual([]);
    expect(text).toContain("<first_name>Florence</first_name>");
  });

  it("keeps the PARS learner workbook's XML well-formed whatever a learner typed as a name", async () => {
    const course = await reportingCourse("pars");
    await course.claimedBy("Ada Byron", { ...PHYSICIAN, lastName: "Byron\uFFFF" });
    const made = await course.generate();
    expect(made.statusCode, made.body).toBe(200);
    const zip = XLSX.CFB.read(await course.download(made.json()), { type: "buffer" });
    const forbidden = zip.FullPaths.flatMap((name: string, i: number) =>
      name.endsWith(".xml")
        ? forbiddenIn(Buffer.from(zip.FileIndex[i]!.content as Uint8Array).toString("utf8"))
        : [],
    );
    expect(forbidden).toEqual([]);
  });

  it("reports a claim again when a corrected PARS activity ID is put back", async () => {
    const course = await reportingCourse("pars");
    await course.claimedBy("Ada Byron", PHYSICIAN);
    const submit = async (file: ReportFile) =>
      expect(
        (
          await call(ctx, "POST", `${FILES("pars")}/${file.id}/submit`, {
            cookie: course.adminCookie,
          })
        ).statusCode,
      ).toBe(200);
    const rows = async (file: ReportFile) =>
      parsRecords(await course.download(file)).map((r) => [r[0], r[1]]);

    // File 1: Add under 201234567, uploaded.
    await submit((await course.generate()).json());
    // Corrected to 201234568: Delete the old row, Add under the new ID, uploaded.
    await course.setReporting("201234568");
    const second = (await course.generate()).json() as ReportFile;
    expect(await rows(second)).toEqual([
      ["Delete", "201234567"],
      ["Add", "201234568"],
    ]);
    await submit(second);
    // The correction was itself a mistake: the first ID is put back. PARS holds the
    // completion under 201234568 only, so the claim is not reported as it stands.
    await course.setReporting("201234567");
    const claims = (
      await call(
        ctx,
        "GET",
        `/api/admin/reports/regulators/pars/claims?courseId=${course.course.id}`,
        {
          cookie: course.adminCookie,
        },
      )
    ).json() as ReportClaim[];
    expect(claims.map((c) => c.status)).toEqual(["changed"]);
    const third = await course.generate();
    expect(third.statusCode, third.body).toBe(200);
    expect(await rows(third.json())).toEqual([
      ["Delete", "201234568"],
      ["Add", "201234567"],
    ]);
  });

  it("sends the weekly digest again to the administrators the mail server refused", async () => {
    const course = await reportingCourse("pars");
    await course.claimedBy("Ada Byron", PHYSICIAN);
    const outbox = join(ctx.dataDir, "outbox");
    const digestsTo = (email: string) =>
      outboxMessages(outbox).filter(
        (m) =>
          m.mime.headers.to?.includes(email) &&
          m.mime.headers.subject?.includes("waiting to be reported"),
      );
    const sweep = async () => (await ctx.app.mailJobs.sweep()).reminders.digests;
    // The claim is overdue, and the mail server refuses everything.
    clock.advanceDays(31);
    mailServerDown(outbox);
    expect(await sweep()).toBe(0);
    // Half an hour later it is back: the week's digest goes out, once.
    mailServerUp(outbox);
    expect(await sweep()).toBe(0);
    clock.advanceDays(1 / 24);
    expect(await sweep()).toBeGreaterThan(0);
    expect(digestsTo(course.admin.email)).toHaveLength(1);
    clock.advanceDays(1 / 24);
    expect(await sweep()).toBe(0);
    expect(digestsTo(course.admin.email)).toHaveLength(1);
  });
});
