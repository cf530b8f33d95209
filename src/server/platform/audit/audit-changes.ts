import type { AuditChange } from "../../../contract";
import { canonicalJson } from "./audit-hash";

/** Text up to this length is short enough to keep in the trail as it was and became. */
const SHORT_TEXT = 120;

const comparable = (value: unknown) =>
  canonicalJson(value instanceof Date ? value.toISOString() : (value ?? null));

/** The value as the trail keeps it, or undefined for long text, lists and objects. */
function shortValue(value: unknown): string | number | boolean | null | undefined {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "string" && value.length <= SHORT_TEXT) return value;
  return undefined;
}

/**
 * The fields of `fields` whose values differ between `before` and `after`, in that order,
 * for an edit's audit event (`details.changes`). Both values are kept when both are short
 * (numbers, yes/no, dates, text up to 120 characters) and the field is not in `namesOnly`;
 * otherwise only the field's name is: the trail says what changed without copying long text.
 */
export function fieldChanges<T extends object>(
  before: T,
  after: T,
  fields: readonly (keyof T & string)[],
  options: { namesOnly?: readonly string[] } = {},
): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const field of fields) {
    const from = before[field];
    const to = after[field];
    if (comparable(from) === comparable(to)) continue;
    const shortFrom = shortValue(from);
    const shortTo = shortValue(to);
    if (options.namesOnly?.includes(field) || shortFrom === undefined || shortTo === undefined) {
      changes.push({ field });
    } else {
      changes.push({ field, from: shortFrom, to: shortTo });
    }
  }
  return changes;
}
