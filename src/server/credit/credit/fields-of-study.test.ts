import { describe, expect, it } from "vitest";
import { DEFAULT_CREDIT_SETTINGS } from "../../../contract";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import { parseCsv } from "../../testing/csv";
import { call, completeViaApi } from "../../testing/learning";

const cents = (n: number) => Math.round(n * 100);

describe("fields of study on a certificate of a partial claim", () => {
  const { ctx, setup, certificatesOf } = useCreditClaim();

  it("still add up to the credit the learner claimed", async () => {
    // 1 CPE credit claimed in quarters, listed as half Accounting and half Ethics.
    const { adminCookie, learner, cookie, course, url } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
      1,
      creditOffer([
        creditType({ name: "CPE credits", amount: 1, accreditingBody: "NASBA", claimStep: 0.25 }),
      ]),
    );
    const { signatureId: _, ...settings } = DEFAULT_CREDIT_SETTINGS;
    const saved = await call(ctx, "PUT", url("credit-settings"), {
      cookie: adminCookie,
      payload: {
        ...settings,
        deliveryMethod: "QAS Self-Study",
        fieldsOfStudy: [
          { field: "Accounting", credits: 0.5 },
          { field: "Ethics", credits: 0.5 },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const attested = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 0.25 },
    });
    expect(attested.statusCode, attested.body).toBe(200);

    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.credits.map((c) => c.text)).toEqual(["0.25 CPE credits"]);
    const fields = certificate!.credit!.fieldsOfStudy;
    // The certificate prints "0.25 CPE credits" beside its fields: they must add up to it.
    expect(cents(fields.reduce((sum, f) => sum + f.credits, 0))).toBe(25);

    // So must the credit report's field columns sent to the regulator.
    const report = await call(ctx, "GET", url("credit-report"), { cookie: adminCookie });
    expect(report.statusCode).toBe(200);
    const [header, row] = parseCsv(report.body);
    const perField = header!
      .map((h, i) => (h.startsWith("Credits: ") ? Number(row![i]) : 0))
      .reduce((a, b) => a + b, 0);
    expect(cents(perField)).toBe(25);
  });

  it("are not printed or reported for a claim of another profession's type", async () => {
    // A jointly accredited course: 2 CPE credits for accountants (their fields of study:
    // Accounting and Auditing) and 1 contact hour for nurses.
    const { adminCookie, learner, cookie, course, url } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
      1,
    );
    const addType = async (payload: object) => {
      const added = await call(ctx, "POST", "/api/credit-catalogue/types", {
        cookie: adminCookie,
        payload: {
          bodyId: null,
          accreditationStatement: "",
          designationStatement: "",
          regulators: [],
          licenceRequired: false,
          ...payload,
        },
      });
      expect(added.statusCode, added.body).toBe(201);
      return added.json() as { id: string };
    };
    const cpe = await addType({
      name: "CPE credits",
      singularName: "CPE credit",
      profession: "Accountancy",
      fieldsOfStudyRequired: true,
    });
    const nursing = await addType({
      name: "contact hours",
      singularName: "contact hour",
      profession: "Nursing",
      fieldsOfStudyRequired: false,
    });
    const { signatureId: _, ...settings } = DEFAULT_CREDIT_SETTINGS;
    const saved = await call(ctx, "PUT", url("credit-settings"), {
      cookie: adminCookie,
      payload: {
        ...settings,
        fieldsOfStudy: [
          { field: "Accounting", credits: 1 },
          { field: "Auditing", credits: 1 },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const offered = await call(ctx, "PUT", url("credit"), {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [
          { catalogueTypeId: cpe.id, amount: 2, designationStatement: "", claimStep: null },
          { catalogueTypeId: nursing.id, amount: 1, designationStatement: "", claimStep: null },
        ],
      },
    });
    expect(offered.statusCode, offered.body).toBe(200);
    const types = (offered.json() as { creditTypes: { id: string; name: string }[] }).creditTypes;
    const contactHours = types.find((t) => t.name === "contact hours")!;

    // A nurse claims the contact hour only.
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const attested = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, claims: [{ creditTypeId: contactHours.id, amount: null }] },
    });
    expect(attested.statusCode, attested.body).toBe(200);

    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.credits).toMatchObject([
      { name: "contact hours", amount: 1, profession: "Nursing" },
    ]);
    // The credit report sent to regulators gives the nurse's contact-hour row no CPE fields.
    const report = await call(ctx, "GET", url("credit-report"), { cookie: adminCookie });
    const [header, row] = parseCsv(report.body);
    const reported = header!.flatMap((h, i) =>
      h.startsWith("Credits: ") && row![i] ? [`${h} = ${row![i]}`] : [],
    );
    expect.soft(reported).toEqual([]);
    // The nurse's certificate names no accountancy field of study: they count CPE credit,
    // which this learner did not claim.
    expect(certificate!.credit!.fieldsOfStudy).toEqual([]);
  });

  it("keep a published course's NASBA type adding up when a catalogue merge brings it in", async () => {
    // A published course offering 2 "CPE hours" typed by its administrator: no fields.
    const { adminCookie, course, url } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
      1,
      creditOffer([
        creditType({ name: "CPE hours", amount: 2, accreditingBody: "", claimStep: null }),
      ]),
    );
    expect(course.isPublished).toBe(true);
    const added = await call(ctx, "POST", "/api/credit-catalogue/types", {
      cookie: adminCookie,
      payload: {
        name: "CPE credits",
        singularName: "CPE credit",
        bodyId: null,
        accreditationStatement: "",
        designationStatement: "",
        profession: "Accountancy",
        regulators: [],
        fieldsOfStudyRequired: true,
        licenceRequired: false,
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const cpe = added.json() as { id: string };

    // Offering the NASBA type directly is refused while the fields do not add up ...
    const direct = await call(ctx, "PUT", url("credit"), {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [{ catalogueTypeId: cpe.id, amount: 2, designationStatement: "", claimStep: null }],
      },
    });
    expect(direct.statusCode, direct.body).toBe(409);

    // ... and so must be the merge that makes the course offer it.
    const catalogue = (
      await call(ctx, "GET", "/api/credit-catalogue", { cookie: adminCookie })
    ).json() as { types: { id: string; name: string }[] };
    const typed = catalogue.types.find((t) => t.name === "CPE hours")!;
    const merged = await call(ctx, "POST", `/api/credit-catalogue/types/${typed.id}/merge`, {
      cookie: adminCookie,
      payload: { intoId: cpe.id },
    });
    const { checks } = (
      await call(ctx, "GET", url("publish-checks"), { cookie: adminCookie })
    ).json() as { checks: { key: string; severity: string }[] };
    expect(checks.filter((c) => c.severity === "block")).toEqual([]);
    expect(merged.statusCode, merged.body).toBe(409);
    expect(merged.json().code).toBe("courses.publish_blocked");
    expect(merged.json().message).toMatch(/^Intro to SQL: The fields of study add/);

    // Nor may the course's own type start asking for fields of study it does not list.
    const tightened = await call(ctx, "PUT", `/api/credit-catalogue/types/${typed.id}`, {
      cookie: adminCookie,
      payload: {
        name: "CPE hours",
        singularName: "CPE hour",
        bodyId: null,
        accreditationStatement: "",
        designationStatement: "",
        profession: "Accountancy",
        regulators: [],
        fieldsOfStudyRequired: true,
        licenceRequired: false,
      },
    });
    expect([tightened.statusCode, tightened.json().code]).toEqual([409, "courses.publish_blocked"]);
  });
});
