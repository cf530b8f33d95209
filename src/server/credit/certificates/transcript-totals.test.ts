import { describe, expect, it } from "vitest";
import type { CatalogueType, CreditCatalogue, Transcript } from "../../../contract";
import { creditOffer, creditType, useCreditClaim } from "../../testing/credit-claim";
import { buildPublishedCourse, call, completeViaApi, enrollViaApi } from "../../testing/learning";

/** An accountants' type of the catalogue, as an administrator adds it in Settings. */
const CPE_CREDITS = {
  name: "CPE credits",
  singularName: "CPE credit",
  bodyId: null,
  accreditationStatement: "",
  designationStatement: "",
  profession: "Accountancy",
  regulators: [],
  fieldsOfStudyRequired: false,
  licenceRequired: false,
};

describe("a transcript's totals keep what issued certificates said", () => {
  const { ctx, video, setup } = useCreditClaim();

  it("does not re-type issued credit when a course's type row is switched to another catalogue type", async () => {
    // A course that asks for no attestation awards its one type whole: 1 contact hour.
    const { adminCookie, learner, cookie, course, types } = await setup(
      null,
      1,
      creditOffer([
        creditType({ name: "contact hours", amount: 1, accreditingBody: "ANCC", claimStep: null }),
      ]),
    );
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const transcript = async () =>
      (
        await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie })
      ).json() as Transcript;
    const before = await transcript();
    expect(before.entries[0]!.credits.map((c) => c.text)).toEqual(["1 contact hour"]);
    expect(before.totals.credits.map((c) => c.text)).toEqual(["1 contact hour"]);

    // Later the administrator chooses another catalogue type in that row of Edit credit
    // types (the editor sends the row back with its id).
    const added = await call(ctx, "POST", "/api/credit-catalogue/types", {
      cookie: adminCookie,
      payload: CPE_CREDITS,
    });
    expect(added.statusCode, added.body).toBe(201);
    const cpe = added.json() as CatalogueType;
    const switched = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: {
        bodies: [],
        types: [
          {
            id: types[0]!.id,
            catalogueTypeId: cpe.id,
            amount: 1,
            designationStatement: "",
            claimStep: null,
          },
        ],
      },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const catalogue = (
      await call(ctx, "GET", "/api/credit-catalogue", { cookie: adminCookie })
    ).json() as CreditCatalogue;
    expect(catalogue.types.map((t) => t.name).sort()).toEqual(["CPE credits", "contact hours"]);

    // The certificate still says 1 contact hour; its total must say the same.
    const after = await transcript();
    expect(after.entries[0]!.credits.map((c) => c.text)).toEqual(["1 contact hour"]);
    expect(after.totals.credits.map((c) => c.text)).toEqual(["1 contact hour"]);
  });

  it("joins a merged type's credit into one total even after the course that offered it was deleted", async () => {
    // Two courses whose administrators typed the same credit two ways; no attestation.
    const first = await setup(
      null,
      1,
      creditOffer([
        creditType({ name: "contact hours", amount: 1, accreditingBody: "ANCC", claimStep: null }),
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
          amount: 1,
          accreditingBody: "ANCC",
          claimStep: null,
        }),
      ]),
    });
    expect(put.statusCode, put.body).toBe(200);
    await enrollViaApi(ctx, adminCookie, learner.id, second.id);
    await completeViaApi(ctx, cookie, learner.id, first.course, 1);
    await completeViaApi(ctx, cookie, learner.id, second, 1);
    const transcript = async () =>
      (
        await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie })
      ).json() as Transcript;
    expect((await transcript()).totals.credits.map((c) => c.text).sort()).toEqual([
      "1 ANCC contact hour",
      "1 contact hour",
    ]);

    // The second course is retired (its certificate stays), then the administrator merges
    // its type into the catalogue's "contact hours" under Review.
    const deleted = await call(ctx, "DELETE", `/api/courses/${second.id}`, { cookie: adminCookie });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const catalogue = (
      await call(ctx, "GET", "/api/credit-catalogue", { cookie: adminCookie })
    ).json() as CreditCatalogue;
    const byName = (name: string) => catalogue.types.find((t) => t.name === name)!;
    const merged = await call(
      ctx,
      "POST",
      `/api/credit-catalogue/types/${byName("ANCC contact hours").id}/merge`,
      { cookie: adminCookie, payload: { intoId: byName("contact hours").id } },
    );
    expect(merged.statusCode, merged.body).toBe(200);

    const after = await transcript();
    expect(after.entries).toHaveLength(2);
    // Merging two types joins their totals everywhere.
    expect(after.totals.credits.map((c) => c.text)).toEqual(["2 contact hours"]);
  });
});
