/**
 * What PostgreSQL refused a statement for (its SQLSTATE and the constraint named), whichever
 * driver ran it: node-postgres throws the error itself, Drizzle's wrapper keeps it as its cause.
 */
export function databaseRefusal(error: unknown): { code?: string; constraint?: string } {
  const outer = error as { code?: string; constraint?: string; cause?: unknown } | null;
  const pg = outer?.code ? outer : (outer?.cause as typeof outer | undefined);
  return { code: pg?.code, constraint: pg?.constraint };
}

/** A row refused because a row it references was deleted meanwhile (foreign_key_violation). */
export const FOREIGN_KEY_VIOLATION = "23503";
