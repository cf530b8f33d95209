import { z } from "zod";

/**
 * The words of every field error a schema writes without a message of its own, on the
 * server and in every form: "Email must be at most 254 characters", "Title is required",
 * never a validator's "Too big: expected string to have <=254 characters". A message a
 * schema gives itself always wins.
 */

/** Words people read in capitals inside a field's name ("courseId" is "Course ID"). */
const CAPITALISED: Record<string, string> = {
  api: "API",
  csv: "CSV",
  id: "ID",
  ids: "IDs",
  ip: "IP",
  npn: "NPN",
  pdf: "PDF",
  uid: "UID",
  url: "URL",
};

/**
 * A field's name as people read it, from the path of the value refused: its last named
 * segment in words ("creditsClaimed" is "Credits claimed"; "types.0.claimStep" is "Claim
 * step"). An environment variable ("DATABASE_URL") keeps its own spelling. Null when the
 * path names no field.
 */
export function fieldLabel(path: readonly PropertyKey[] | undefined): string | null {
  const key = [...(path ?? [])]
    .reverse()
    .find((segment): segment is string => typeof segment === "string" && /\D/.test(segment));
  if (!key) return null;
  if (/^[A-Z][A-Z0-9_]*$/.test(key)) return key;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((word) => CAPITALISED[word] ?? word);
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const count = (n: number | bigint) =>
  typeof n === "bigint" ? n.toString() : n.toLocaleString("en-US");
const many = (n: number | bigint, one: string, more = `${one}s`) =>
  `${count(n)} ${Number(n) === 1 ? one : more}`;

/** A size in bytes as people read it: "5 MB", "800 KB", "12 bytes". */
function sizeText(bytes: number): string {
  if (bytes >= 1_048_576) return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return many(bytes, "byte");
}

/** A date limit as a day (the limit is a Date, or a time in milliseconds). */
const dayText = (limit: number | bigint | Date) =>
  new Date(limit instanceof Date ? limit.getTime() : Number(limit)).toISOString().slice(0, 10);

/** Decimal places a divisor like 0.01 allows, or null for any other divisor. */
function decimalsOf(divisor: number): number | null {
  if (divisor >= 1) return null;
  const places = Math.round(-Math.log10(divisor));
  return 10 ** -places === divisor ? places : null;
}

const quoted = (value: unknown) => (typeof value === "string" ? `"${value}"` : String(value));

type Issue = z.core.$ZodRawIssue;

/** What a value refused for its type should be, for "Price must be a number". */
function expectedText(issue: Extract<Issue, { code: "invalid_type" }>): string {
  switch (issue.expected) {
    case "number":
    case "bigint":
    case "nan":
      return "must be a number";
    case "int":
      return typeof issue.input === "number" && Number.isFinite(issue.input)
        ? "must be a whole number"
        : "must be a number";
    case "string":
      return "must be text";
    case "boolean":
      return "must be yes or no";
    case "array":
    case "tuple":
    case "set":
      return "must be a list";
    case "date":
      return "must be a date";
    default:
      return "is not valid";
  }
}

/** The message of an issue whose schema gave none, naming the field when the path does. */
function validationMessage(issue: Issue): string {
  const label = fieldLabel(issue.path);
  const subject = label ?? "This value";
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) {
        return label ? `${label} is required` : "This field is required";
      }
      return `${subject} ${expectedText(issue)}`;
    case "too_big": {
      const max = issue.maximum;
      const limit = issue.exact ? "exactly" : issue.inclusive ? "at most" : "less than";
      switch (issue.origin) {
        case "string":
          return issue.inclusive || issue.exact
            ? `${subject} must be ${limit} ${many(max, "character")}`
            : `${subject} must be shorter than ${many(max, "character")}`;
        case "array":
        case "set":
          return `${subject} can have ${issue.exact ? "exactly" : issue.inclusive ? "at most" : "fewer than"} ${many(max, "item")}`;
        case "file":
          return `${subject} must be ${issue.inclusive ? "at most" : "smaller than"} ${sizeText(Number(max))}`;
        case "date":
          return `${subject} must be ${issue.inclusive ? "on or before" : "before"} ${dayText(max)}`;
        default:
          return `${subject} must be ${limit} ${count(max)}`;
      }
    }
    case "too_small": {
      const min = issue.minimum;
      switch (issue.origin) {
        case "string":
          if (Number(min) === 1 && issue.inclusive && !issue.exact) {
            return label ? `${label} is required` : "This field is required";
          }
          return issue.exact
            ? `${subject} must be exactly ${many(min, "character")}`
            : `${subject} must be at least ${many(min, "character")}`;
        case "array":
        case "set":
          return `${subject} needs ${issue.exact ? "exactly" : "at least"} ${many(min, "item")}`;
        case "file":
          return `${subject} must be at least ${sizeText(Number(min))}`;
        case "date":
          return `${subject} must be ${issue.inclusive ? "on or after" : "after"} ${dayText(min)}`;
        default:
          return issue.exact
            ? `${subject} must be exactly ${count(min)}`
            : issue.inclusive
              ? `${subject} must be at least ${count(min)}`
              : `${subject} must be greater than ${count(min)}`;
      }
    }
    case "invalid_format":
      switch (issue.format) {
        case "email":
          return "Enter a valid email address";
        case "url":
          return "Enter a valid web address";
        case "date":
        case "datetime":
          return `${subject} must be a valid date`;
        case "starts_with":
          return `${subject} must start with ${quoted(issue.prefix)}`;
        case "ends_with":
          return `${subject} must end with ${quoted(issue.suffix)}`;
        case "includes":
          return `${subject} must include ${quoted(issue.includes)}`;
        case "regex":
          return `${subject} is not in the expected format`;
        default:
          return `${subject} is not valid`;
      }
    case "not_multiple_of": {
      const decimals = decimalsOf(Number(issue.divisor));
      return decimals === null
        ? `${subject} must be a multiple of ${count(issue.divisor)}`
        : decimals === 0
          ? `${subject} must be a whole number`
          : `${subject} can have at most ${many(decimals, "decimal")}`;
    }
    case "unrecognized_keys":
      return issue.keys.length === 1
        ? `${quoted(issue.keys[0])} is not a field of this form`
        : `${issue.keys.map(quoted).join(", ")} are not fields of this form`;
    case "invalid_value":
      if (issue.values.length === 1) return `${subject} must be ${quoted(issue.values[0])}`;
      return label
        ? `${label} must be one of: ${issue.values.map(String).join(", ")}`
        : `Choose one of: ${issue.values.map(String).join(", ")}`;
    default:
      return `${subject} is not valid`;
  }
}

/**
 * Makes these the default messages of every schema. Called once by each side at start (the
 * web client's main.tsx, the server's buildApp): the contract itself runs nothing on import,
 * so a page's bundle keeps only the schemas it uses.
 */
export function installValidationMessages(): void {
  z.config({ customError: validationMessage });
}
