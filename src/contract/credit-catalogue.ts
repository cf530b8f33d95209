import { z } from "zod";
import { regulatorSchema } from "./reporting-activity";

/**
 * The organisation's credit catalogue: the accrediting bodies that accredit the provider, each
 * with the provider number it gave, and the credit types the provider offers, each named once
 * as its body writes it. Courses offer types from the catalogue with their own amounts, so a
 * learner's "contact hours" from two courses are one type and add up.
 */

const CATALOGUE_NAME_MAX = 100;
const BODY_NAME_MAX = 200;
const PROVIDER_NUMBER_MAX = 100;
const STATEMENT_MAX = 5000;
const PROFESSION_MAX = 100;
export const CATALOGUE_TYPES_MAX = 100;

/** The minutes of learning in one credit hour: 60 for most bodies, 50 for NASBA's CPE. */
export const CREDIT_HOUR_MINUTES = [50, 60] as const;

const text = (max: number, label: string) =>
  z
    .string({ error: `Enter the ${label.toLowerCase()} as text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
const requiredText = (max: number, label: string) =>
  text(max, label).min(1, `Enter the ${label.toLowerCase()}`);

/** POST /api/credit-catalogue/bodies and PUT /api/credit-catalogue/bodies/{id}. */
export const creditBodyBodySchema = z.strictObject({
  name: requiredText(BODY_NAME_MAX, "Accrediting body"),
  providerNumber: text(PROVIDER_NUMBER_MAX, "Provider number"),
  minutesPerHour: z.union([z.literal(50), z.literal(60)], {
    error: "A credit hour is 50 or 60 minutes",
  }),
});
export type CreditBodyBody = z.infer<typeof creditBodyBodySchema>;

/**
 * The answers describe what is stored, not what a request may send: a body or type made
 * from a course's own words (or when the catalogue began) may lack what the forms require,
 * such as a profession, and is still listed for the administrator to complete.
 */
export const catalogueBodySchema = z.object({
  id: z.string(),
  name: z.string(),
  providerNumber: z.string(),
  minutesPerHour: z.union([z.literal(50), z.literal(60)]),
});
export type CatalogueBody = z.infer<typeof catalogueBodySchema>;

/** POST /api/credit-catalogue/types and PUT /api/credit-catalogue/types/{id}. */
export const catalogueTypeBodySchema = z.strictObject({
  /** As the body writes it for more than one: "contact hours", "AMA PRA Category 1 Credits™". */
  name: requiredText(CATALOGUE_NAME_MAX, "Credit name"),
  /** As the body writes exactly one: "contact hour", "AMA PRA Category 1 Credit™". */
  singularName: requiredText(CATALOGUE_NAME_MAX, "Singular name"),
  /** The catalogue body that accredits it; null for credit no body accredits. */
  bodyId: z.string().min(1).max(64).nullable(),
  accreditationStatement: text(STATEMENT_MAX, "Accreditation statement"),
  /** The designation a new course starts from; each course states its own amount. */
  designationStatement: text(STATEMENT_MAX, "Designation statement"),
  /** Whom the credit serves, printed where a course would show its category: "Nursing". */
  profession: requiredText(PROFESSION_MAX, "Profession"),
  /** The regulators this credit is reported to. */
  regulators: z.array(regulatorSchema).max(3),
  /** A course offering it cannot be published until its fields of study add up (NASBA). */
  fieldsOfStudyRequired: z.boolean(),
  /** Learners claiming it give their licence before the certificate. */
  licenceRequired: z.boolean(),
});
export type CatalogueTypeBody = z.infer<typeof catalogueTypeBodySchema>;

export const catalogueTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  singularName: z.string(),
  bodyId: z.string().nullable(),
  accreditationStatement: z.string(),
  designationStatement: z.string(),
  profession: z.string(),
  regulators: z.array(regulatorSchema),
  fieldsOfStudyRequired: z.boolean(),
  licenceRequired: z.boolean(),
  /** Made from courses' own types when the catalogue began: the administrator confirms or merges it. */
  needsReview: z.boolean(),
  /** How many courses offer it. */
  courses: z.number().int(),
});
export type CatalogueType = z.infer<typeof catalogueTypeSchema>;

/** GET /api/credit-catalogue. */
export const creditCatalogueSchema = z.object({
  bodies: z.array(catalogueBodySchema.extend({ types: z.number().int() })),
  types: z.array(catalogueTypeSchema),
});
export type CreditCatalogue = z.infer<typeof creditCatalogueSchema>;

/** POST /api/credit-catalogue/types/{id}/merge: the courses offering it offer `intoId` instead. */
export const catalogueMergeBodySchema = z.strictObject({
  intoId: z.string().min(1, "Choose the credit type to merge into").max(64),
});

export const CATALOGUE_MESSAGES = {
  bodyNameTaken: (name: string) => `The catalogue already has ${name}.`,
  typeNameTaken: (name: string) => `The catalogue already has ${name} from this body.`,
  bodyNotFound: "That accrediting body is not in the catalogue.",
  typeNotFound: "That credit type is not in the catalogue.",
  bodyInUse: (types: number) =>
    `${types} ${types === 1 ? "credit type names" : "credit types name"} this body: remove or change ${types === 1 ? "it" : "them"} first.`,
  typeInUse: (courses: number) =>
    `${courses} ${courses === 1 ? "course offers" : "courses offer"} this credit type: merge it into another instead.`,
  mergeIntoItself: "Choose another credit type to merge into.",
  mergeBothOffered: (courses: number) =>
    `${courses} ${courses === 1 ? "course offers" : "courses offer"} both credit types: remove one of them from ${courses === 1 ? "that course" : "those courses"} first.`,
} as const;
