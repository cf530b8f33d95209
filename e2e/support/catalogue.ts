import { type APIRequestContext, expect } from "@playwright/test";
import type { CatalogueType, CatalogueTypeBody, CreditCatalogue } from "../../src/contract";

/** The organisation's credit catalogue through the API, as Settings keeps it. */

type CatalogueBodyAnswer = CreditCatalogue["bodies"][number];

/** Adds an accrediting body to the catalogue (a 60-minute credit hour unless told). */
export async function addCatalogueBody(
  api: APIRequestContext,
  body: { name: string; providerNumber?: string; minutesPerHour?: 50 | 60 },
): Promise<CatalogueBodyAnswer> {
  const res = await api.post("/api/credit-catalogue/bodies", {
    data: { providerNumber: "", minutesPerHour: 60, ...body },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CatalogueBodyAnswer;
}

/**
 * Adds a credit type to the catalogue: its singular is made from the plural name unless
 * given, without statements, regulators or rules unless told.
 */
export async function addCatalogueType(
  api: APIRequestContext,
  type: TypeFields,
): Promise<CatalogueType> {
  const res = await postType(api, type);
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CatalogueType;
}

type TypeFields = Pick<CatalogueTypeBody, "name" | "bodyId" | "profession"> &
  Partial<CatalogueTypeBody>;

/** POST /api/credit-catalogue/types with what the test leaves out filled in. */
const postType = (api: APIRequestContext, type: TypeFields) =>
  api.post("/api/credit-catalogue/types", {
    data: {
      singularName: type.name.replace(/s$/, ""),
      accreditationStatement: "",
      designationStatement: "",
      regulators: [],
      fieldsOfStudyRequired: false,
      licenceRequired: false,
      ...type,
    },
  });

/** The catalogue as it stands. */
export async function readCatalogue(api: APIRequestContext): Promise<CreditCatalogue> {
  const res = await api.get("/api/credit-catalogue");
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as CreditCatalogue;
}

/**
 * The catalogue's type of this name from this body, added (with its body) when the
 * catalogue lacks it. Tests running side by side may add the same one: the second finds it.
 */
export async function catalogueCredit(
  api: APIRequestContext,
  body: { name: string; providerNumber: string; minutesPerHour?: 50 | 60 },
  type: Omit<TypeFields, "bodyId">,
): Promise<CatalogueType> {
  const find = async () => {
    const catalogue = await readCatalogue(api);
    const bodyId = catalogue.bodies.find((b) => b.name === body.name)?.id;
    return {
      bodyId,
      type: catalogue.types.find((t) => t.bodyId === bodyId && t.name === type.name),
    };
  };
  let found = await find();
  if (!found.bodyId) {
    const added = await api.post("/api/credit-catalogue/bodies", {
      data: { minutesPerHour: 60, ...body },
    });
    expect([201, 409], await added.text()).toContain(added.status());
    found = await find();
  }
  if (found.type) return found.type;
  const added = await postType(api, { ...type, bodyId: found.bodyId ?? null });
  expect([201, 409], await added.text()).toContain(added.status());
  return added.status() === 201 ? ((await added.json()) as CatalogueType) : (await find()).type!;
}
