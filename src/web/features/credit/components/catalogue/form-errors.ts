import type { z } from "zod";

/** Each field's first message from a refused parse, keyed by the field's name. */
export function firstErrors<F extends string>(issues: z.core.$ZodIssue[]) {
  const found: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = String(issue.path[0]) as F;
    found[field] ??= issue.message;
  }
  return found;
}
