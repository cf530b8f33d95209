import {
  type DateFormat,
  formatDocumentDate,
  formatDocumentDateTime,
  formatShortDocumentDate,
} from "@contract";
import { useMemo } from "react";
import { useDateFormat } from "./organisation";

/** How every screen prints a date: the format chosen in Settings. */
export interface DateTexts {
  /** "November 21, 2026" for a moment, on the reader's calendar; an em dash when missing. */
  date(iso: string | null | undefined): string;
  /** A whole day (`YYYY-MM-DD`) as it was set: no time zone moves it to the day before. */
  day(day: string | null | undefined): string;
  /** "November 21, 2026, 4:58 PM UTC": a moment with its time and zone. */
  dateTime(iso: string | null | undefined): string;
  /** "Nov 21" in a compact list, with the year when it is not this year's. */
  shortDate(iso: string | null | undefined): string;
}

const DASH = "—";

/** The reader's own time zone: a screen shows the day their calendar showed. */
const readerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The date texts of one format, in `timeZone` (the reader's by default). */
export function dateTexts(
  format: DateFormat,
  timeZone = readerZone(),
  now: Date = new Date(),
): DateTexts {
  const year = Number(new Intl.DateTimeFormat("en-US", { year: "numeric", timeZone }).format(now));
  return {
    date: (iso) => (iso ? formatDocumentDate(iso, format, timeZone) || DASH : DASH),
    day: (day) =>
      day ? formatDocumentDate(`${day.slice(0, 10)}T00:00:00Z`, format) || DASH : DASH,
    dateTime: (iso) => (iso ? formatDocumentDateTime(iso, format, timeZone) || DASH : DASH),
    shortDate: (iso) => (iso ? formatShortDocumentDate(iso, format, timeZone, year) : ""),
  };
}

/** The date texts of the portal's format (the default until the organisation is read). */
export function useDates(): DateTexts {
  const format = useDateFormat();
  return useMemo(() => dateTexts(format), [format]);
}
