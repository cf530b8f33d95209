import { describe, expect, it } from "vitest";
import type { CatalogueType, CreditCatalogue } from "../../../contract";
import { creditOffer, creditType, useCreditClaim } from "../../testing/credit-claim";
import { buildPublishedCourse, call } from "../../testing/learning";

/**
 * Administrators editing the catalogue at the same moment. Races only on PostgreSQL
 * (TEST_DATABASE_URL): PGlite has one connection and runs the transactions one by one.
 */
describe("credit catalogue under concurrent edits", () => {
  const { ctx, video, setup } = useCreditClaim();

  it("two courses offering the same new credit by its words at once both save (one body, one type)", async () => {
    const { adminCookie, course: first } = await setup(null, 1);
    const second = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 1,
    });
    const offer = creditOffer(
      [creditType({ name: "pharmacy hours", accreditingBody: "ACPE", claimStep: null })],
      { ACPE: "P-9" },
    );
    const save = (course: { id: string }) =>
      call(ctx, "PUT", `/api/courses/${course.id}/credit`, { cookie: adminCookie, payload: offer });
    const [a, b] = await Promise.all([save(first), save(second)]);
    // Neither administrator's save may fail with a server error.
    expect([a.statusCode, b.statusCode], `${a.body}\n${b.body}`).toEqual([200, 200]);
    const catalogue = (
      await call(ctx, "GET", "/api/credit-catalogue", { cookie: adminCookie })
    ).json() as CreditCatalogue;
    expect(catalogue.bodies.filter((x) => x.name === "ACPE")).toHaveLength(1);
    expect(catalogue.types.filter((t) => t.name === "pharmacy hours")).toHaveLength(1);
  });

  it("two opposite merges at once: one wins, the other is a clean 404, never a 500", async () => {
    const { adminCookie } = await setup(null, 1);
    const post = (payload: object) =>
      call(ctx, "POST", "/api/credit-catalogue/types", { cookie: adminCookie, payload });
    const base = {
      singularName: "hour",
      accreditationStatement: "",
      designationStatement: "",
      profession: "Nursing",
      regulators: [],
      fieldsOfStudyRequired: false,
      licenceRequired: false,
      bodyId: null,
    };
    for (let round = 0; round < 10; round++) {
      const x = (await post({ ...base, name: `hours x${round}` })).json() as CatalogueType;
      const y = (await post({ ...base, name: `hours y${round}` })).json() as CatalogueType;
      const merge = (from: string, into: string) =>
        call(ctx, "POST", `/api/credit-catalogue/types/${from}/merge`, {
          cookie: adminCookie,
          payload: { intoId: into },
        });
      const [a, b] = await Promise.all([merge(x.id, y.id), merge(y.id, x.id)]);
      expect([a.statusCode, b.statusCode].sort(), `${a.body}\n${b.body}`).toEqual([200, 404]);
    }
  });
});
