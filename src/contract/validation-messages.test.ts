import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCourseBodySchema, emailSchema, loginBodySchema } from "./index";
import { fieldLabel, installValidationMessages } from "./validation-messages";

beforeAll(installValidationMessages);

/** The messages a schema gives `value`, each with its field's dotted path. */
const messagesOf = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((i) => [i.path.join("."), i.message]) ?? [];

const only = (schema: z.ZodType, value: unknown) => messagesOf(schema, value)[0]?.[1];

/** A validator's own wording: what must never reach a person. */
const VALIDATOR_WORDS = /Invalid input|Too big|Too small|expected|received|<=|>=|Unrecognized key/;

describe("field labels", () => {
  it("names a field in words from its path", () => {
    expect(fieldLabel(["email"])).toBe("Email");
    expect(fieldLabel(["creditsClaimed"])).toBe("Credits claimed");
    expect(fieldLabel(["types", 0, "claimStep"])).toBe("Claim step");
    expect(fieldLabel(["courseId"])).toBe("Course ID");
    expect(fieldLabel(["answers", 3])).toBe("Answers");
    expect(fieldLabel(["DATABASE_URL"])).toBe("DATABASE_URL");
    expect(fieldLabel([])).toBeNull();
    expect(fieldLabel(undefined)).toBeNull();
  });
});

describe("default messages of every schema", () => {
  it("says what is wrong with the contract's own fields, naming them", () => {
    expect(only(loginBodySchema, { email: `${"a".repeat(250)}@example.com`, password: "x" })).toBe(
      "Email must be at most 254 characters",
    );
    const course = { description: "d", category: "Design", duration: 2 };
    expect(only(createCourseBodySchema, { ...course, title: "t".repeat(201) })).toBe(
      "Title must be at most 200 characters",
    );
    expect(only(createCourseBodySchema, { ...course, title: "T", category: "Cooking" })).toBe(
      "Category must be one of: Development, Database, Mobile, Design",
    );
    expect(only(createCourseBodySchema, { ...course, title: "T", duration: 20_000 })).toBe(
      "Duration must be at most 10,000 hours",
    );
  });

  it("asks for a missing answer instead of reporting a null", () => {
    expect(only(z.object({ answer: z.string() }), { answer: null })).toBe("Answer is required");
    expect(only(z.object({ title: z.string().min(1) }), { title: "" })).toBe("Title is required");
    expect(only(z.string(), undefined)).toBe("This field is required");
  });

  it("words each kind of refusal for people", () => {
    const cases: [z.ZodType, unknown, string][] = [
      [z.object({ price: z.number() }), { price: "1" }, "Price must be a number"],
      [z.object({ seats: z.number().int() }), { seats: 1.5 }, "Seats must be a whole number"],
      [z.object({ seats: z.number().min(2) }), { seats: 1 }, "Seats must be at least 2"],
      [z.object({ seats: z.number().positive() }), { seats: 0 }, "Seats must be greater than 0"],
      [
        z.object({ hours: z.number().multipleOf(0.01) }),
        { hours: 1.555 },
        "Hours can have at most 2 decimals",
      ],
      [z.object({ code: z.string().min(4) }), { code: "ab" }, "Code must be at least 4 characters"],
      [
        z.object({ code: z.string().length(4) }),
        { code: "abcde" },
        "Code must be exactly 4 characters",
      ],
      [
        z.object({ tags: z.array(z.string()).max(2) }),
        { tags: ["a", "b", "c"] },
        "Tags can have at most 2 items",
      ],
      [z.object({ tags: z.array(z.string()).min(1) }), { tags: [] }, "Tags needs at least 1 item"],
      [z.object({ site: z.url() }), { site: "nope" }, "Enter a valid web address"],
      [z.object({ email: z.email() }), { email: "nope" }, "Enter a valid email address"],
      [
        z.object({ zip: z.string().regex(/^\d+$/) }),
        { zip: "x" },
        "Zip is not in the expected format",
      ],
      [z.object({ on: z.boolean() }), { on: "yes" }, "On must be yes or no"],
      [z.object({ ok: z.literal(true) }), { ok: false }, "Ok must be true"],
      [z.strictObject({ a: z.string() }), { a: "x", b: 1 }, '"b" is not a field of this form'],
      [z.object({ v: z.union([z.number(), z.string()]) }), { v: null }, "V is not valid"],
    ];
    for (const [schema, value, message] of cases) {
      expect(only(schema, value), message).toBe(message);
    }
  });

  it("never lets a validator's wording through for any field of the sign-in and course forms", () => {
    const bad = [
      [loginBodySchema, { email: null, password: 5, rememberMe: "y" }],
      [emailSchema, 42],
      [createCourseBodySchema, { title: null, description: [], category: 3, duration: "x" }],
      [createCourseBodySchema, { title: "T", description: "D", category: "Design", duration: 0.5 }],
    ] as const;
    for (const [schema, value] of bad) {
      for (const [path, message] of messagesOf(schema, value)) {
        expect(message, `${path}: ${message}`).not.toMatch(VALIDATOR_WORDS);
      }
    }
  });

  it("keeps a message a schema gives itself", () => {
    expect(only(z.object({ n: z.number().min(1, "Add at least one seat") }), { n: 0 })).toBe(
      "Add at least one seat",
    );
  });
});
