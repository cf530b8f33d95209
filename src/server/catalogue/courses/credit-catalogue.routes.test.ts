import { describe, expect, it } from "vitest";
import type {
  AuditEvent,
  CatalogueType,
  Course,
  CoursePublishCheck,
  CreditCatalogue,
  Transcript,
} from "../../../contract";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import { buildPublishedCourse, call, completeViaApi, enrollViaApi } from "../../testing/learning";

/** A nursing type of the catalogue, as an administrator adds it in Settings. */
const CONTACT_HOURS = {
  name: "contact hours",
  singularName: "contact hour",
  accreditationStatement: "Credo Health is accredited by the ANCC.",
  designationStatement: "",
  profession: "Nursing",
  regulators: [],
  fieldsOfStudyRequired: false,
  licenceRequired: false,
};

describe("the organisation's credit catalogue", () => {
  const { ctx, video, setup } = useCreditClaim();

  const catalogueOf = async (cookie: string) =>
    (await call(ctx, "GET", "/api/credit-catalogue", { cookie })).json() as CreditCatalogue;

  it("keeps bodies and types once, refuses duplicates and what is in use, and lets only admins in", async () => {
    const { adminCookie, cookie: learnerCookie } = await setup(null);
    const post = (path: string, payload: object) =>
      call(ctx, "POST", `/api/credit-catalogue/${path}`, { cookie: adminCookie, payload });

    const body = await post("bodies", {
      name: "ANCC",
      providerNumber: "P-0421",
      minutesPerHour: 60,
    });
    expect(body.statusCode, body.body).toBe(201);
    const ancc = body.json() as { id: string };
    const again = await post("bodies", { name: "ancc", providerNumber: "", minutesPerHour: 60 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "catalogue.body_name_taken",
      message: "The catalogue already has ancc.",
    });
    const badHour = await post("bodies", { name: "NASBA", providerNumber: "", minutesPerHour: 45 });
    expect(badHour.statusCode).toBe(400);
    expect(badHour.json().message).toContain("A credit hour is 50 or 60 minutes");

    const created = await post("types", { ...CONTACT_HOURS, bodyId: ancc.id });
    expect(created.statusCode, created.body).toBe(201);
    const type = created.json() as CatalogueType;
    expect(type).toMatchObject({ name: "contact hours", needsReview: false, courses: 0 });
    expect((await post("types", { ...CONTACT_HOURS, bodyId: ancc.id })).json()).toMatchObject({
      code: "catalogue.type_name_taken",
    });
    const noProfession = await post("types", {
      ...CONTACT_HOURS,
      bodyId: null,
      name: "hours",
      profession: " ",
    });
    expect(noProfession.statusCode).toBe(400);
    expect(noProfession.json()).toMatchObject({
      path: "profession",
      message: "Enter the profession",
    });

    // A course offers it by id, with its own amount.
    const { course } = await setup(null);
    const offered = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [
          { catalogueTypeId: type.id, amount: 1.5, designationStatement: "", claimStep: null },
        ],
      },
    });
    expect(offered.statusCode, offered.body).toBe(200);
    expect((offered.json() as Course).creditTypes).toMatchObject([
      {
        catalogueTypeId: type.id,
        name: "contact hours",
        singularName: "contact hour",
        profession: "Nursing",
        accreditingBody: "ANCC",
        providerNumber: "P-0421",
        amount: 1.5,
      },
    ]);

    // What a course offers cannot be removed; the body its types name cannot either.
    const removeType = await call(ctx, "DELETE", `/api/credit-catalogue/types/${type.id}`, {
      cookie: adminCookie,
    });
    expect(removeType.statusCode).toBe(409);
    expect(removeType.json().message).toBe(
      "1 course offers this credit type: merge it into another instead.",
    );
    const removeBody = await call(ctx, "DELETE", `/api/credit-catalogue/bodies/${ancc.id}`, {
      cookie: adminCookie,
    });
    expect(removeBody.json()).toMatchObject({ code: "catalogue.body_in_use" });

    // Renumbering the body changes every course's offer at once.
    const renumbered = await call(ctx, "PUT", `/api/credit-catalogue/bodies/${ancc.id}`, {
      cookie: adminCookie,
      payload: { name: "ANCC", providerNumber: "P-9999", minutesPerHour: 60 },
    });
    expect(renumbered.statusCode, renumbered.body).toBe(200);
    const read = (
      await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: adminCookie })
    ).json();
    expect((read as Course).creditTypes[0]!.providerNumber).toBe("P-9999");

    // Learners have no business here.
    expect(
      (await call(ctx, "GET", "/api/credit-catalogue", { cookie: learnerCookie })).statusCode,
    ).toBe(403);
    expect(
      (
        await call(ctx, "POST", "/api/credit-catalogue/bodies", {
          cookie: learnerCookie,
          payload: { name: "X", providerNumber: "", minutesPerHour: 60 },
        })
      ).statusCode,
    ).toBe(403);
    expect((await catalogueOf(adminCookie)).bodies).toContainEqual(
      expect.objectContaining({ name: "ANCC", providerNumber: "P-9999", types: 1 }),
    );

    // Every change is on the audit trail.
    const trail = (
      await call(ctx, "GET", "/api/audit/events?limit=50", { cookie: adminCookie })
    ).json() as { events: AuditEvent[] };
    expect(trail.events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        "catalogue.body_added",
        "catalogue.type_added",
        "catalogue.body_updated",
      ]),
    );
  });

  it("edits and removes what no course offers, refusing a name another body or type has", async () => {
    const { adminCookie } = await setup(null);
    const send = (method: "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
      call(ctx, method, url, { cookie: adminCookie, payload });
    const body = (name: string) => ({ name, providerNumber: "", minutesPerHour: 60 });
    const ancc = (await send("POST", "/api/credit-catalogue/bodies", body("ANCC"))).json();
    const spare = (await send("POST", "/api/credit-catalogue/bodies", body("ACPE"))).json();
    const taken = await send("PUT", `/api/credit-catalogue/bodies/${spare.id}`, body("ancc"));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: "catalogue.body_name_taken" });

    const type = (name: string) => ({ ...CONTACT_HOURS, bodyId: ancc.id, name });
    const hours = (await send("POST", "/api/credit-catalogue/types", type("contact hours"))).json();
    const other = (
      await send("POST", "/api/credit-catalogue/types", type("pharmacology hours"))
    ).json();
    const renamed = await send("PUT", `/api/credit-catalogue/types/${other.id}`, {
      ...type("pharmacotherapeutics hours"),
      singularName: "pharmacotherapeutics hour",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: "pharmacotherapeutics hours", courses: 0 });
    const clash = await send(
      "PUT",
      `/api/credit-catalogue/types/${other.id}`,
      type("Contact Hours"),
    );
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ code: "catalogue.type_name_taken" });

    expect((await send("DELETE", `/api/credit-catalogue/types/${other.id}`)).statusCode).toBe(204);
    expect((await send("DELETE", `/api/credit-catalogue/bodies/${spare.id}`)).statusCode).toBe(204);
    const left = await catalogueOf(adminCookie);
    expect(left.types.map((t) => t.id)).toContain(hours.id);
    expect(left.types.map((t) => t.id)).not.toContain(other.id);
    expect(left.bodies.map((b) => b.id)).not.toContain(spare.id);
  });

  it("answers a body or type it does not have with 404, changing nothing", async () => {
    const { adminCookie } = await setup(null);
    const send = (method: "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
      call(ctx, method, url, { cookie: adminCookie, payload });
    const body = { name: "ANCC", providerNumber: "", minutesPerHour: 60 };
    const before = await catalogueOf(adminCookie);
    for (const [method, url, payload, code] of [
      ["PUT", "/api/credit-catalogue/bodies/nope", body, "catalogue.body_not_found"],
      ["DELETE", "/api/credit-catalogue/bodies/nope", undefined, "catalogue.body_not_found"],
      [
        "POST",
        "/api/credit-catalogue/types",
        { ...CONTACT_HOURS, bodyId: "nope" },
        "catalogue.body_not_found",
      ],
      [
        "PUT",
        "/api/credit-catalogue/types/nope",
        { ...CONTACT_HOURS, bodyId: null },
        "catalogue.type_not_found",
      ],
      ["DELETE", "/api/credit-catalogue/types/nope", undefined, "catalogue.type_not_found"],
      ["POST", "/api/credit-catalogue/types/nope/confirm", undefined, "catalogue.type_not_found"],
      [
        "POST",
        "/api/credit-catalogue/types/nope/merge",
        { intoId: "other" },
        "catalogue.type_not_found",
      ],
    ] as const) {
      const answer = await send(method, url, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json()).toMatchObject({ code });
    }
    expect(await catalogueOf(adminCookie)).toEqual(before);
  });

  it("totals a learner's credit by catalogue type across courses, before and after a merge", async () => {
    // Two courses whose administrators typed the same credit two ways.
    const first = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
      1,
      creditOffer([
        creditType({
          name: "contact hours",
          amount: 1.5,
          accreditingBody: "ANCC",
          claimStep: null,
        }),
      ]),
    );
    const { adminCookie, learner, cookie } = first;
    const second = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 1,
    });
    const put = await call(ctx, "PUT", `/api/courses/${second.id}/credit`, {
      cookie: adminCookie,
      payload: creditOffer([
        creditType({
          name: "ANCC contact hours",
          amount: 1.5,
          accreditingBody: "ANCC",
          claimStep: null,
        }),
      ]),
    });
    expect(put.statusCode, put.body).toBe(200);
    await call(ctx, "PUT", `/api/courses/${second.id}/activity`, {
      cookie: adminCookie,
      payload: accme({ evaluationRequired: false, acknowledgementRequired: false }),
    });
    await enrollViaApi(ctx, adminCookie, learner.id, second.id);
    for (const course of [first.course, { ...second }]) {
      await completeViaApi(ctx, cookie, learner.id, course, 1);
      const attested = await call(ctx, "POST", `/api/courses/${course.id}/attest`, {
        cookie,
        payload: { statement: STATEMENT },
      });
      expect(attested.statusCode, attested.body).toBe(200);
    }
    const transcript = async () =>
      (
        await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie })
      ).json() as Transcript;
    expect((await transcript()).totals.credits.map((c) => c.text).sort()).toEqual([
      "1.5 ANCC contact hours",
      "1.5 contact hours",
    ]);

    // The administrator merges the second into the first: one type, one total.
    const catalogue = await catalogueOf(adminCookie);
    const byName = (name: string) => catalogue.types.find((t) => t.name === name)!;
    const merged = await call(
      ctx,
      "POST",
      `/api/credit-catalogue/types/${byName("ANCC contact hours").id}/merge`,
      { cookie: adminCookie, payload: { intoId: byName("contact hours").id } },
    );
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({ name: "contact hours", courses: 2 });
    const after = await transcript();
    expect(after.totals.credits.map((c) => c.text)).toEqual(["3 contact hours"]);
    // Nothing already issued changes: each certificate keeps the words it printed.
    expect(after.entries.flatMap((e) => e.credits.map((c) => c.name)).sort()).toEqual([
      "ANCC contact hours",
      "contact hours",
    ]);
    // The second course now offers the catalogue's type.
    const read = (
      await call(ctx, "GET", `/api/courses/${second.id}`, { cookie: adminCookie })
    ).json();
    expect((read as Course).creditTypes.map((t) => t.name)).toEqual(["contact hours"]);

    // A merge into a type the same course already offers is refused.
    const third = await call(ctx, "POST", "/api/credit-catalogue/types", {
      cookie: adminCookie,
      payload: {
        ...CONTACT_HOURS,
        bodyId: null,
        name: "pharmacology hours",
        singularName: "pharmacology hour",
      },
    });
    const pharm = third.json() as CatalogueType;
    await call(ctx, "PUT", `/api/courses/${second.id}/credit`, {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [
          {
            catalogueTypeId: byName("contact hours").id,
            amount: 1.5,
            designationStatement: "",
            claimStep: null,
          },
          { catalogueTypeId: pharm.id, amount: 0.5, designationStatement: "", claimStep: null },
        ],
      },
    });
    const refused = await call(ctx, "POST", `/api/credit-catalogue/types/${pharm.id}/merge`, {
      cookie: adminCookie,
      payload: { intoId: byName("contact hours").id },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "1 course offers both credit types: remove one of them from that course first.",
    );
  });

  it("refuses to publish while the fields of study do not add up to the credit that needs them", async () => {
    const { adminCookie } = await setup(null);
    const nasba = (
      await call(ctx, "POST", "/api/credit-catalogue/bodies", {
        cookie: adminCookie,
        payload: { name: "NASBA", providerNumber: "112233", minutesPerHour: 50 },
      })
    ).json() as { id: string };
    const cpe = (
      await call(ctx, "POST", "/api/credit-catalogue/types", {
        cookie: adminCookie,
        payload: {
          ...CONTACT_HOURS,
          name: "CPE credits",
          singularName: "CPE credit",
          bodyId: nasba.id,
          profession: "Accounting",
          fieldsOfStudyRequired: true,
        },
      })
    ).json() as CatalogueType;
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 1,
      draft: true,
    });
    await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [{ catalogueTypeId: cpe.id, amount: 2, designationStatement: "", claimStep: null }],
      },
    });
    const settings = (fields: { field: string; credits: number }[]) =>
      call(ctx, "PUT", `/api/courses/${course.id}/credit-settings`, {
        cookie: adminCookie,
        payload: {
          sponsorName: "Credo CPE",
          sponsorAddress: "",
          deliveryMethod: "QAS Self-Study",
          fieldsOfStudy: fields,
          officialName: "",
          officialTitle: "",
        },
      });
    expect((await settings([{ field: "Accounting", credits: 1.5 }])).statusCode).toBe(200);

    const checks = async () =>
      (
        (
          await call(ctx, "GET", `/api/courses/${course.id}/publish-checks`, {
            cookie: adminCookie,
          })
        ).json() as {
          checks: CoursePublishCheck[];
        }
      ).checks;
    const message =
      "The fields of study add up to 1.5 CPE credits, but the course offers 2 CPE credits: make them add up under Credit settings.";
    expect(await checks()).toContainEqual({
      key: "fields-of-study",
      severity: "block",
      message,
      moduleId: null,
    });
    // The test video is short, so publishing also needs a reason for the credit's length: the
    // fields are refused first, reason or not.
    const publish = () =>
      call(
        ctx,
        "PATCH",
        `/api/courses/${course.id}/publish?confirm=manual-completion&creditLengthReason=Reading`,
        {
          cookie: adminCookie,
        },
      );
    const refused = await publish();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: "courses.publish_blocked", message });
    const stillDraft = (
      await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: adminCookie })
    ).json();
    expect((stillDraft as Course).isPublished).toBe(false);

    await settings([
      { field: "Accounting", credits: 1.5 },
      { field: "Taxes", credits: 0.5 },
    ]);
    expect((await checks()).filter((c) => c.key === "fields-of-study")).toEqual([]);
    const published = await publish();
    expect(published.statusCode, published.body).toBe(200);

    // Published, its fields of study keep adding up: an edit that breaks them changes nothing.
    const broken = await settings([{ field: "Accounting", credits: 1.5 }]);
    expect(broken.statusCode).toBe(409);
    expect(broken.json()).toEqual({
      code: "credit.fields_of_study_mismatch",
      message:
        "The fields of study would add up to 1.5 CPE credits, but the published course offers 2 CPE credits: its certificates print them, so they must add up.",
    });
    const kept = await call(ctx, "GET", `/api/courses/${course.id}/activity`, {
      cookie: adminCookie,
    });
    expect(JSON.stringify(kept.json())).toContain("Taxes");
    const reordered = await settings([
      { field: "Taxes", credits: 0.5 },
      { field: "Accounting", credits: 1.5 },
    ]);
    expect(reordered.statusCode, reordered.body).toBe(200);

    // Nor can the published course offer more of the credit than its fields add up to.
    const raised = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [{ catalogueTypeId: cpe.id, amount: 3, designationStatement: "", claimStep: null }],
      },
    });
    expect(raised.statusCode).toBe(409);
    expect(raised.json()).toMatchObject({ code: "courses.publish_blocked" });
    const offered = (
      await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: adminCookie })
    ).json() as Course;
    expect(offered.creditTypes.map((t) => t.amount)).toEqual([2]);
  });

  it("warns before publishing a course that does not report its credit where the catalogue says it is reported", async () => {
    const { adminCookie } = await setup(null);
    const type = (
      await call(ctx, "POST", "/api/credit-catalogue/types", {
        cookie: adminCookie,
        payload: { ...CONTACT_HOURS, bodyId: null, regulators: ["ce_broker"] },
      })
    ).json() as CatalogueType;
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 1,
      draft: true,
    });
    const offered = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [{ catalogueTypeId: type.id, amount: 1, designationStatement: "", claimStep: null }],
      },
    });
    const [offeredType] = (offered.json() as Course).creditTypes;
    expect(offeredType!.regulators).toEqual(["ce_broker"]);
    const reportingChecks = async () =>
      (
        (
          await call(ctx, "GET", `/api/courses/${course.id}/publish-checks`, {
            cookie: adminCookie,
          })
        ).json() as { checks: CoursePublishCheck[] }
      ).checks.filter((c) => c.key === "reporting");
    expect(await reportingChecks()).toEqual([
      {
        key: "reporting",
        severity: "warning",
        message:
          "The catalogue reports contact hours to CE Broker, but this course does not: set its CE Broker activity ID under Reporting, or its learners' claims will not reach CE Broker.",
        moduleId: null,
      },
    ]);

    const reported = await call(ctx, "PUT", `/api/courses/${course.id}/reporting`, {
      cookie: adminCookie,
      payload: {
        types: [
          {
            creditTypeId: offeredType!.id,
            regulators: [
              { regulator: "ce_broker", activityId: "20-123456", providerId: "50-1234" },
            ],
          },
        ],
      },
    });
    expect(reported.statusCode, reported.body).toBe(200);
    expect(await reportingChecks()).toEqual([]);
  });

  it("asks a reason, kept on the audit trail, to publish credit beyond the content's length", async () => {
    const { adminCookie } = await setup(null);
    const type = (
      await call(ctx, "POST", "/api/credit-catalogue/types", {
        cookie: adminCookie,
        payload: { ...CONTACT_HOURS, bodyId: null },
      })
    ).json() as CatalogueType;
    // One module of the shared test video, whose real length is a few seconds.
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 1,
      draft: true,
    });
    await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [
          { catalogueTypeId: type.id, amount: 1.5, designationStatement: "", claimStep: null },
        ],
      },
    });
    const { checks } = (
      await call(ctx, "GET", `/api/courses/${course.id}/publish-checks`, { cookie: adminCookie })
    ).json() as { checks: CoursePublishCheck[] };
    const warning = checks.find((c) => c.key === "credit-length")!;
    expect(warning.severity).toBe("confirm");
    expect(warning.message).toMatch(
      /^1\.5 contact hours is more than the content supports: its modules run \d+ s, which is 0 contact hours at a 60-minute hour\. Publish it only with a reason, kept on the audit trail\.$/,
    );

    // The course completes manually: that confirmation is asked beside the reason.
    const publish = (query = "") =>
      call(ctx, "PATCH", `/api/courses/${course.id}/publish?confirm=manual-completion${query}`, {
        cookie: adminCookie,
      });
    const refused = await publish();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "The credit exceeds what the content's length supports: give the reason to publish it anyway.",
    );
    expect((await publish("&creditLengthReason=%20")).statusCode).toBe(400);
    const reason = "Includes 90 minutes of assigned reading reviewed by the planners";
    const published = await publish(`&creditLengthReason=${encodeURIComponent(reason)}`);
    expect(published.statusCode, published.body).toBe(200);

    const trail = (
      await call(ctx, "GET", "/api/audit/events?type=course.published&limit=5", {
        cookie: adminCookie,
      })
    ).json() as { events: AuditEvent[] };
    expect(trail.events[0]!.details).toMatchObject({
      creditLengthReason: reason,
      creditLength: [warning.message],
    });
  });
});
