import { z } from "zod";

/** The years a date in Credo can name: from before any learner's records to PostgreSQL's and JavaScript's common range. */
const FIRST_YEAR = 1900;
const LAST_YEAR = 9999;

/** Whether `YYYY-MM-DD` names a day that exists: 2024-02-30 does not, 2024-02-29 does. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < FIRST_YEAR || year > LAST_YEAR) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** A range of days whose ends are swapped, said of its end (the field the person fixes). */
export const DATE_RANGE_REVERSED = "The start date must not be after the end date";

/** A whole day as `YYYY-MM-DD`, checked against the calendar (never rolled over to the next month). */
export const calendarDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-11-21")
  .refine(isCalendarDate, `Not a valid date between ${FIRST_YEAR} and ${LAST_YEAR}`);
