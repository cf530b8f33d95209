import { describe, expect, it } from "vitest";
import {
  CATALOGUE_MESSAGES,
  type CatalogueType,
  type CatalogueTypeBody,
  type Course,
  type CreditCatalogue,
} from "../../../contract";
import { createCourse } from "../../testing/courses";
import { creditOffer, creditType } from "../../testing/credit-claim";
import { call, quickAdmin, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

const nursing = (bodyId: string | null, extra: Partial<CatalogueTypeBody> = {}) => ({
  name: "contact hours",
  singularName: "contact hour",
  bodyId,
  accreditationStatement: "Credo Nursing is accredited by the ANCC.",
  designationStatement: "This activity is approved for 1 contact hour.",
  profession: "Nursing",
  regulators: ["ce_broker"],
  fieldsOfStudyRequired: false,
  licenceRequired: true,
  ...extra,
});

describe("reviewing the credit catalogue", () => {
  const ctx = useTestApp();

  async function setup() {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const send = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
      call(ctx, method, url, { cookie, payload });
    const catalogue = async () =>
      (await send("GET", "/api/credit-catalogue")).json() as CreditCatalogue;
    const addBody = async (name: string) => {
      const res = await send("POST", "/api/credit-catalogue/bodies", {
        name,
        providerNumber: "P-0400",
        minutesPerHour: 60,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as CreditCatalogue["bodies"][number];
    };
    const addType = async (body: ReturnType<typeof nursing>) => {
      const res = await send("POST", "/api/credit-catalogue/types", body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as CatalogueType;
    };
    const offer = async (courseId: string, catalogueTypeIds: string[]) => {
      const res = await send("PUT", `/api/courses/${courseId}/credit`, {
        bodies: [],
        types: catalogueTypeIds.map((catalogueTypeId) => ({
          catalogueTypeId,
          amount: 1,
          designationStatement: "",
          claimStep: null,
        })),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Course;
    };
    return { cookie, send, catalogue, addBody, addType, offer };
  }

  it("holds a type named by a course's own words for review, until it is confirmed or merged", async () => {
    const { send, catalogue, addBody, addType, offer, cookie } = await setup();
    const ancc = await addBody("ANCC");
    const chosen = await addType(nursing(ancc.id));
    const first = await createCourse(ctx, cookie);
    const second = await createCourse(ctx, cookie);
    // Two courses name credit by their words, as API clients may: each spelling joins the catalogue.
    for (const [course, name] of [
      [first, "nursing contact hours"],
      [second, "CNE hours"],
    ] as const) {
      const res = await send(
        "PUT",
        `/api/courses/${course.id}/credit`,
        creditOffer([creditType({ name, accreditingBody: "ANCC", claimStep: null })]),
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const flagged = (await catalogue()).types.filter((t) => t.needsReview);
    expect(flagged.map((t) => [t.name, t.profession, t.courses])).toEqual([
      ["CNE hours", "", 1],
      ["nursing contact hours", "", 1],
    ]);
    const [cne, spelled] = flagged as [CatalogueType, CatalogueType];

    const confirmed = await send("POST", `/api/credit-catalogue/types/${cne.id}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: cne.id, needsReview: false, courses: 1 });

    // Merging is refused while a course offers both types, and changes nothing.
    await offer(first.id, [spelled.id, chosen.id]);
    const both = await send("POST", `/api/credit-catalogue/types/${spelled.id}/merge`, {
      intoId: chosen.id,
    });
    expect(both.statusCode).toBe(409);
    expect(both.json()).toMatchObject({
      code: "catalogue.merge_conflict",
      message: CATALOGUE_MESSAGES.mergeBothOffered(1),
    });
    expect((await catalogue()).types.find((t) => t.id === spelled.id)).toMatchObject({
      needsReview: true,
      courses: 1,
    });

    await offer(first.id, [spelled.id]);
    const merged = await send("POST", `/api/credit-catalogue/types/${spelled.id}/merge`, {
      intoId: chosen.id,
    });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({ id: chosen.id, courses: 1 });
    const course = (await send("GET", `/api/courses/${first.id}`)).json() as Course;
    expect(course.creditTypes).toMatchObject([
      { catalogueTypeId: chosen.id, name: "contact hours", profession: "Nursing" },
    ]);
    expect((await catalogue()).types.map((t) => [t.name, t.needsReview])).toEqual([
      ["CNE hours", false],
      ["contact hours", false],
    ]);
  });
});
