import { describe, expect, it } from "vitest";
import { dateTexts } from "./dates";

const AT = "2026-11-29T04:58:31.000Z";
const NOW = new Date("2026-12-01T12:00:00Z");

describe("dates on screen", () => {
  it("prints every date in the format chosen in Settings", () => {
    const us = dateTexts("month-day-year", "UTC", NOW);
    const uk = dateTexts("day-month-year", "UTC", NOW);
    const iso = dateTexts("iso", "UTC", NOW);
    expect([us.date(AT), uk.date(AT), iso.date(AT)]).toEqual([
      "November 29, 2026",
      "29 November 2026",
      "2026-11-29",
    ]);
    expect([us.dateTime(AT), uk.dateTime(AT), iso.dateTime(AT)]).toEqual([
      "November 29, 2026, 4:58 AM UTC",
      "29 November 2026, 04:58 UTC",
      "2026-11-29 04:58 UTC",
    ]);
    expect([us.shortDate(AT), uk.shortDate(AT), iso.shortDate(AT)]).toEqual([
      "Nov 29",
      "29 Nov",
      "2026-11-29",
    ]);
    expect(us.shortDate("2025-03-02T10:00:00Z")).toBe("Mar 2, 2025");
  });

  it("shows a moment on the reader's calendar, and a whole day as it was set", () => {
    const tokyo = dateTexts("iso", "Asia/Tokyo", NOW);
    expect(tokyo.date("2026-11-29T20:00:00Z")).toBe("2026-11-30");
    const honolulu = dateTexts("day-month-year", "Pacific/Honolulu", NOW);
    expect(honolulu.day("2027-03-01")).toBe("1 March 2027");
    expect(honolulu.dateTime(AT)).toBe("28 November 2026, 18:58 GMT-10");
  });

  it("prints a dash for a missing or unreadable date", () => {
    const texts = dateTexts("month-day-year", "UTC", NOW);
    expect([texts.date(null), texts.day(undefined), texts.dateTime("nonsense")]).toEqual([
      "—",
      "—",
      "—",
    ]);
    expect(texts.shortDate(null)).toBe("");
  });
});
