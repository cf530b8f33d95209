import { z } from "zod";
import type { CreditType } from "./entities";

/**
 * The credit types a course offers. A jointly accredited activity offers one activity for
 * several professions: AMA PRA Category 1 Credit™ for physicians, ANCC contact hours for
 * nurses, NASBA CPE credits for accountants. Each type has its own amount, accrediting body
 * and statements, and each learner claims the types of their profession. Amounts of
 * different types are never added together: a CPE credit (a 50-minute hour) is not a
 * contact hour.
 */

export const CREDIT_TYPES_MAX = 10;
const CREDIT_NAME_MAX = 100;
const CREDIT_BODY_NAME_MAX = 200;
const PROVIDER_NUMBER_MAX = 100;
const CREDIT_STATEMENT_MAX = 5000;
const CREDIT_AMOUNT_MAX = 1000;

/**
 * Credits are hundredths at most: 0.25, 1.5, 12. Exactly: the number must be the one its
 * hundredths spell, so 1.7500001 or 1e-9 is refused instead of being rounded when stored.
 */
export const isHundredths = (v: number) => Math.round(v * 100) / 100 === v;

/** Whether `step` divides `amount` exactly, in hundredths. */
const divides = (step: number, amount: number) =>
  Math.round(amount * 100) % Math.round(step * 100) === 0;

/** "0.25", "1.5", "10": an amount as printed, without trailing zeros. */
const amountText = (amount: number) => String(Math.round(amount * 100) / 100);

/**
 * The counted noun of a credit name written in the plural, as the accrediting body writes
 * it: its last word ending in a single "s" ("contact hours", "CPE credits", "CEUs"), with
 * anything after it that is not a word (a trademark sign, a parenthesis such as "(NCPD)").
 * A name whose last word is not such a plural ("AMA PRA Category 1 Credit™") has none and
 * is printed as written for every amount.
 */
const PLURAL_NOUN = /^(.*\p{L}\p{L})s((?:\s*\([^()]*\))?[^\p{L}\p{N}]*)$/u;

/** The name for exactly one, made from a plural name by dropping its counted noun's "s". */
export function singularOf(name: string): string {
  const written = name.trim();
  const plural = pluralNoun(written);
  return plural ? `${plural[1]}${plural[2]}` : written;
}

/**
 * The credit as a certificate prints it: "1 contact hour", "1.5 CPE credits",
 * "1 AMA PRA Category 1 Credit™", "2 AMA PRA Category 1 Credits™". The name is the body's
 * plural; exactly 1 takes the singular the catalogue gives, or else one made from the plural.
 */
export function creditAmountText(amount: number, name: string, singular?: string | null): string {
  if (amount !== 1) return `${amountText(amount)} ${name.trim()}`;
  return `1 ${singular?.trim() || singularOf(name)}`;
}

/** The counted noun of a plural credit name, split before its final "s"; null for a singular one. */
function pluralNoun(name: string) {
  const plural = PLURAL_NOUN.exec(name);
  return plural && !/s$/i.test(plural[1]!) ? plural : null;
}

/**
 * Whether a credit name is written in the plural, so a sentence takes a plural verb:
 * "contact hours require", but "AMA PRA Category 1 Credit™ requires".
 */
export const isPluralCreditName = (name: string) => pluralNoun(name.trim()) !== null;

const text = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
const requiredText = (max: number, label: string) =>
  text(max, label).min(1, `${label} is required`);
const amount = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .positive(`${label} must be greater than 0`)
    .max(CREDIT_AMOUNT_MAX, `${label} must be at most ${CREDIT_AMOUNT_MAX}`)
    .refine(isHundredths, `${label} can have at most 2 decimals`);

/** An accrediting body of a course, with the provider number it gave the provider. */
const creditBodySchema = z.strictObject({
  name: requiredText(CREDIT_BODY_NAME_MAX, "Accrediting body"),
  providerNumber: text(PROVIDER_NUMBER_MAX, "Provider number"),
});
type CreditBody = z.infer<typeof creditBodySchema>;

const creditTypeBodySchema = z.strictObject({
  /** Kept across edits so learners' claims stay linked to their type; new types omit it. */
  id: z.string().min(1).max(64).optional(),
  /**
   * The catalogue type offered, whose words and body the course takes; the name, body,
   * accreditation statement and licence rule then come from the catalogue. Without it the
   * type is found in the catalogue by its body and name, and added there when new.
   */
  catalogueTypeId: z.string().min(1).max(64).optional(),
  name: text(CREDIT_NAME_MAX, "Credit name").default(""),
  amount: amount("Amount"),
  /** One of the course's bodies by name, or "" for none. */
  accreditingBody: text(CREDIT_BODY_NAME_MAX, "Accrediting body").default(""),
  accreditationStatement: text(CREDIT_STATEMENT_MAX, "Accreditation statement").default(""),
  designationStatement: text(CREDIT_STATEMENT_MAX, "Designation statement"),
  claimStep: amount("Claim step").nullable(),
  licenceRequired: z.boolean().default(false),
});
export type CreditTypeBody = z.infer<typeof creditTypeBodySchema>;

const sameName = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/**
 * PUT /api/courses/{id}/credit: the course's whole credit offer. Each body is entered once
 * with its provider number, and types name their body; no types means no credit.
 */
export const courseCreditBodySchema = z
  .strictObject({
    bodies: z.array(creditBodySchema).max(CREDIT_TYPES_MAX, `At most ${CREDIT_TYPES_MAX} bodies`),
    types: z
      .array(creditTypeBodySchema)
      .max(CREDIT_TYPES_MAX, `At most ${CREDIT_TYPES_MAX} credit types`),
  })
  .superRefine((body, ctx) => {
    body.bodies.forEach((b, i) => {
      if (body.bodies.findIndex((o) => sameName(o.name, b.name)) !== i) {
        ctx.addIssue({
          code: "custom",
          path: ["bodies", i, "name"],
          message: `${b.name} is listed twice: enter each body once`,
        });
      } else if (!body.types.some((t) => sameName(t.accreditingBody, b.name))) {
        ctx.addIssue({
          code: "custom",
          path: ["bodies", i, "name"],
          message: `No credit type names ${b.name}: remove it or choose it for a type`,
        });
      }
    });
    body.types.forEach((t, i) => {
      if (!t.catalogueTypeId && !t.name) {
        ctx.addIssue({
          code: "custom",
          path: ["types", i, "name"],
          message: "Choose a credit type",
        });
      } else if (
        t.catalogueTypeId &&
        body.types.findIndex((o) => o.catalogueTypeId === t.catalogueTypeId) !== i
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["types", i, "catalogueTypeId"],
          message: "Each credit type can be offered once",
        });
      } else if (
        !t.catalogueTypeId &&
        body.types.findIndex((o) => sameName(o.name, t.name)) !== i
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["types", i, "name"],
          message: `${t.name} is offered twice`,
        });
      }
      if (t.id && body.types.findIndex((o) => o.id === t.id) !== i) {
        ctx.addIssue({
          code: "custom",
          path: ["types", i, "id"],
          message: "Type ids must be unique",
        });
      }
      if (t.accreditingBody && !body.bodies.some((b) => sameName(b.name, t.accreditingBody))) {
        ctx.addIssue({
          code: "custom",
          path: ["types", i, "accreditingBody"],
          message: `Add ${t.accreditingBody} to the accrediting bodies`,
        });
      }
      // An amount or step with more than 2 decimals has its own message: never judge (and
      // print) a rounded number the administrator did not type.
      const comparable =
        isHundredths(t.amount) && t.claimStep !== null && isHundredths(t.claimStep);
      if (comparable && !(t.claimStep! <= t.amount && divides(t.claimStep!, t.amount))) {
        ctx.addIssue({
          code: "custom",
          path: ["types", i, "claimStep"],
          message: `The claim step must divide ${amountText(t.amount)}`,
        });
      }
    });
  });
export type CourseCreditBody = z.infer<typeof courseCreditBodySchema>;
export type CourseCreditInput = z.input<typeof courseCreditBodySchema>;

/** The bodies of a course's types, each once, in the order the types first name them. */
export function creditBodiesOf(types: CreditType[]): CreditBody[] {
  const bodies: CreditBody[] = [];
  for (const t of types) {
    if (t.accreditingBody && !bodies.some((b) => b.name === t.accreditingBody)) {
      bodies.push({ name: t.accreditingBody, providerNumber: t.providerNumber ?? "" });
    }
  }
  return bodies;
}

/**
 * A course's credit offer in the form its editor sends back unchanged: each type by its
 * catalogue type, with the course's own amount, claim step and designation.
 */
export function courseCreditBodyOf(types: CreditType[]): CourseCreditInput {
  return {
    bodies: [],
    types: types.map((t) => ({
      id: t.id,
      catalogueTypeId: t.catalogueTypeId,
      amount: t.amount,
      designationStatement: t.designationStatement,
      claimStep: t.claimStep,
    })),
  };
}

/** "Up to 1 contact hour · Up to 2 CPE credits": what a course offers, for learner screens. */
export const offeredCreditText = (
  types: (Pick<CreditType, "amount" | "name"> & { singularName?: string })[],
) => types.map((t) => `Up to ${creditAmountText(t.amount, t.name, t.singularName)}`).join(" · ");

/* ------------------------------------------------------------------ claimed credit */

/** One credit type as a learner claimed it in the attestation. */
export const creditClaimSchema = z.object({
  /** The offered type it was claimed from; null once that type is deleted. */
  creditTypeId: z.string().nullable(),
  /** Its type in the organisation's catalogue, which totals add up by; absent on older records. */
  catalogueTypeId: z.string().nullable().optional(),
  name: z.string(),
  /** The name for exactly 1, as the catalogue gave it; absent on older records. */
  singularName: z.string().nullable().optional(),
  /** Whom the credit serves ("Nursing"), as the catalogue said at issue; absent on older records. */
  profession: z.string().nullable().optional(),
  amount: z.number(),
  /** The amount as printed: "1 contact hour". */
  text: z.string(),
  accreditingBody: z.string().nullable(),
  providerNumber: z.string().nullable(),
});
export type CreditClaim = z.infer<typeof creditClaimSchema>;

/** A claimed credit as a certificate prints it, with its type's statements at issue. */
export const claimedCreditSchema = creditClaimSchema.extend({
  accreditationStatement: z.string(),
  designationStatement: z.string(),
});
export type ClaimedCredit = z.infer<typeof claimedCreditSchema>;

/** A claimed credit as stored (its printed text is made on reading). */
export type StoredClaimedCredit = Omit<ClaimedCredit, "text">;
export const withCreditText = <
  T extends { amount: number; name: string; singularName?: string | null },
>(
  c: T,
): T & { text: string } => ({ ...c, text: creditAmountText(c.amount, c.name, c.singularName) });

/** A total of one credit type of the catalogue (or, for older records, of one name). */
export const creditTotalSchema = z.object({
  /** The catalogue type totalled; null for credit recorded before the catalogue. */
  catalogueTypeId: z.string().nullable().optional(),
  name: z.string(),
  amount: z.number(),
  text: z.string(),
});
export type CreditTotal = z.infer<typeof creditTotalSchema>;

type TotalledCredit = Pick<ClaimedCredit, "name" | "amount" | "catalogueTypeId" | "singularName">;

/**
 * Sums the credits per catalogue type, in the order each type first appears: "contact hours"
 * from one course and "ANCC contact hours" from another are one type once merged in the
 * catalogue, named as the catalogue names it now. Credit with no catalogue type adds up by
 * its name. Amounts of different types are never added together.
 */
export function creditTotals(
  credits: TotalledCredit[],
  catalogue: ReadonlyMap<string, { name: string; singularName: string }> = new Map(),
): CreditTotal[] {
  const sums = new Map<string, { first: TotalledCredit; sum: number }>();
  for (const c of credits) {
    const key = c.catalogueTypeId ?? `name:${c.name.trim().toLocaleLowerCase()}`;
    const total = sums.get(key) ?? { first: c, sum: 0 };
    total.sum = Math.round((total.sum + c.amount) * 100) / 100;
    sums.set(key, total);
  }
  return [...sums.values()].map(({ first, sum }) => {
    const named = (first.catalogueTypeId && catalogue.get(first.catalogueTypeId)) || first;
    return {
      catalogueTypeId: first.catalogueTypeId ?? null,
      name: named.name,
      amount: sum,
      text: creditAmountText(sum, named.name, named.singularName),
    };
  });
}

/** One claim in an attestation: a type the course offers and the amount claimed of it. */
export const creditClaimBodySchema = z.strictObject({
  creditTypeId: z.string().min(1).max(64),
  /** Never rounded; null claims the type's whole amount (required when it has a claim step). */
  amount: amount("Credits claimed").nullable(),
});

/**
 * Whom a credit course is for, where a course without credit shows the spec's category:
 * the professions its credit types serve ("Nursing · Medicine"); null without credit, or
 * when the catalogue names no profession.
 */
export const courseProfessions = (course: { creditTypes: { profession: string }[] }) =>
  [...new Set(course.creditTypes.map((t) => t.profession.trim()).filter(Boolean))].join(" · ") ||
  null;

/** "1.5 contact hours · 2 CPE credits": what a credit course offers, each type's whole amount. */
export const courseCreditText = (course: {
  creditTypes: Pick<CreditType, "amount" | "name" | "singularName">[];
}) => course.creditTypes.map((t) => creditAmountText(t.amount, t.name, t.singularName)).join(" · ");
