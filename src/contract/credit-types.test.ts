import { describe, expect, it } from "vitest";
import {
  courseCreditBodySchema,
  creditAmountText,
  creditLines,
  creditTotals,
  isPluralCreditName,
  offeredCreditText,
} from "./index";

const NAMES = [
  "AMA PRA Category 1 Credit™",
  "contact hours",
  "CPE credits",
  "ACPE contact hours",
] as const;

/** Every amount of every type name, exactly as the certificate prints it. */
const PRINTED: Record<(typeof NAMES)[number], string[]> = {
  "AMA PRA Category 1 Credit™": [
    "0.25 AMA PRA Category 1 Credit™",
    "0.5 AMA PRA Category 1 Credit™",
    "1 AMA PRA Category 1 Credit™",
    "1.5 AMA PRA Category 1 Credit™",
    "2 AMA PRA Category 1 Credit™",
    "10 AMA PRA Category 1 Credit™",
  ],
  "contact hours": [
    "0.25 contact hours",
    "0.5 contact hours",
    "1 contact hour",
    "1.5 contact hours",
    "2 contact hours",
    "10 contact hours",
  ],
  "CPE credits": [
    "0.25 CPE credits",
    "0.5 CPE credits",
    "1 CPE credit",
    "1.5 CPE credits",
    "2 CPE credits",
    "10 CPE credits",
  ],
  "ACPE contact hours": [
    "0.25 ACPE contact hours",
    "0.5 ACPE contact hours",
    "1 ACPE contact hour",
    "1.5 ACPE contact hours",
    "2 ACPE contact hours",
    "10 ACPE contact hours",
  ],
};
const AMOUNTS = [0.25, 0.5, 1, 1.5, 2, 10];

describe("credit wording", () => {
  for (const name of NAMES) {
    it.each(AMOUNTS.map((amount, i) => [amount, PRINTED[name][i]!]))(
      `prints %s ${name} as "%s"`,
      (amount, printed) => {
        expect(creditAmountText(amount, name)).toBe(printed);
      },
    );
  }

  it("singularises the counted noun by rule, whatever the name", () => {
    expect(creditAmountText(1, "CEUs")).toBe("1 CEU");
    expect(creditAmountText(1, "ANCC contact hours (NCPD)")).toBe("1 ANCC contact hour (NCPD)");
    expect(creditAmountText(1, "AMA PRA Category 1 Credits™")).toBe("1 AMA PRA Category 1 Credit™");
    // A name not in the plural is printed as written; "ss" is no plural.
    expect(creditAmountText(1, "Continuing Education Class")).toBe("1 Continuing Education Class");
    expect(creditAmountText(1.0, "  contact hours ")).toBe("1 contact hour");
  });

  it("tells a plural credit name from a singular one, for the verb of a sentence", () => {
    for (const name of ["contact hours", "CPE credits", "CEUs", "ANCC contact hours (NCPD)"]) {
      expect(isPluralCreditName(name), name).toBe(true);
    }
    for (const name of ["AMA PRA Category 1 Credit™", "Continuing Education Class", "CME"]) {
      expect(isPluralCreditName(name), name).toBe(false);
    }
  });

  it("prints each claimed type, then each body once with its provider number", () => {
    const credits = [
      { text: "1 contact hour", accreditingBody: "ANCC", providerNumber: "P-0421" },
      { text: "1.5 ACPE contact hours", accreditingBody: "ANCC", providerNumber: "P-0421" },
      { text: "1 CPE credit", accreditingBody: "NASBA", providerNumber: "112233" },
    ];
    expect(creditLines({ credits, examScore: 90, examPassedAt: "2026-11-24T10:00:00Z" })).toEqual([
      "1 contact hour",
      "1.5 ACPE contact hours",
      "1 CPE credit",
      "Accredited by ANCC",
      "Provider no. P-0421",
      "Accredited by NASBA",
      "Provider no. 112233",
      "Final exam passed with 90% on November 24, 2026",
    ]);
    // The exam's day in the portal's date format, like every other date.
    const exam = { credits: [], examScore: 90, examPassedAt: "2026-11-24T10:00:00Z" };
    expect(creditLines(exam, "day-month-year")).toEqual([
      "Final exam passed with 90% on 24 November 2026",
    ]);
    expect(creditLines(exam, "iso")).toEqual(["Final exam passed with 90% on 2026-11-24"]);
  });

  it("totals each type apart and never across types", () => {
    expect(
      creditTotals([
        { name: "CPE credits", amount: 1 },
        { name: "contact hours", amount: 1 },
        { name: "CPE credits", amount: 0.5 },
      ]),
    ).toEqual([
      { catalogueTypeId: null, name: "CPE credits", amount: 1.5, text: "1.5 CPE credits" },
      { catalogueTypeId: null, name: "contact hours", amount: 1, text: "1 contact hour" },
    ]);
    // One catalogue type, whatever each course called it, named as the catalogue names it.
    const catalogue = new Map([["ch", { name: "contact hours", singularName: "contact hour" }]]);
    expect(
      creditTotals(
        [
          { catalogueTypeId: "ch", name: "contact hours", amount: 0.5 },
          { catalogueTypeId: "ch", name: "ANCC contact hours", amount: 0.5 },
        ],
        catalogue,
      ),
    ).toEqual([
      { catalogueTypeId: "ch", name: "contact hours", amount: 1, text: "1 contact hour" },
    ]);
    expect(offeredCreditText([{ name: "contact hours", amount: 1 }])).toBe("Up to 1 contact hour");
  });
});

describe("a course's credit offer", () => {
  const type = {
    name: "contact hours",
    amount: 1.5,
    accreditingBody: "ANCC",
    accreditationStatement: "",
    designationStatement: "",
    claimStep: 0.25,
    licenceRequired: true,
  };
  const issues = (body: unknown) => {
    const parsed = courseCreditBodySchema.safeParse(body);
    return parsed.success
      ? []
      : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("takes each body once, named by its types", () => {
    expect(issues({ bodies: [{ name: "ANCC", providerNumber: "P-1" }], types: [type] })).toEqual(
      [],
    );
    expect(issues({ bodies: [], types: [] })).toEqual([]);
    expect(
      issues({
        bodies: [
          { name: "ANCC", providerNumber: "P-1" },
          { name: "ancc", providerNumber: "P-2" },
        ],
        types: [type],
      }),
    ).toEqual(["bodies.1.name: ancc is listed twice: enter each body once"]);
    expect(issues({ bodies: [], types: [type] })).toEqual([
      "types.0.accreditingBody: Add ANCC to the accrediting bodies",
    ]);
    expect(issues({ bodies: [{ name: "NASBA", providerNumber: "" }], types: [] })).toEqual([
      "bodies.0.name: No credit type names NASBA: remove it or choose it for a type",
    ]);
  });

  it("holds names, amounts and claim steps to their rules", () => {
    const bodies = [{ name: "ANCC", providerNumber: "" }];
    expect(issues({ bodies, types: [{ ...type, name: "x".repeat(101) }] })).toEqual([
      "types.0.name: Credit name must be at most 100 characters",
    ]);
    expect(issues({ bodies, types: [{ ...type, amount: 0 }] })[0]).toBe(
      "types.0.amount: Amount must be greater than 0",
    );
    // Only the amount's own message: the step is not judged against a rounded amount.
    expect(issues({ bodies, types: [{ ...type, amount: 1.555, claimStep: 0.5 }] })).toEqual([
      "types.0.amount: Amount can have at most 2 decimals",
    ]);
    expect(issues({ bodies, types: [{ ...type, claimStep: 0.125 }] })).toEqual([
      "types.0.claimStep: Claim step can have at most 2 decimals",
    ]);
    expect(issues({ bodies, types: [{ ...type, claimStep: 0.4 }] })).toEqual([
      "types.0.claimStep: The claim step must divide 1.5",
    ]);
    expect(issues({ bodies, types: [type, { ...type, name: "Contact Hours" }] })).toEqual([
      "types.1.name: Contact Hours is offered twice",
    ]);
  });
});
