import { describe, expect, it } from "vitest";
import { calendarDateSchema, isCalendarDate } from "./dates";

describe("calendar dates", () => {
  it("accepts days that exist, leap days included", () => {
    for (const date of ["2024-02-29", "2026-12-31", "1900-01-01", "9999-12-31"]) {
      expect(isCalendarDate(date), date).toBe(true);
    }
  });

  it("refuses days that do not exist instead of rolling them over", () => {
    for (const date of [
      "2024-02-30",
      "2023-02-29",
      "2026-04-31",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
    ]) {
      expect(isCalendarDate(date), date).toBe(false);
    }
  });

  it("refuses years outside what the database and the browser can hold, and other shapes", () => {
    for (const date of [
      "0000-01-01",
      "1899-12-31",
      "+10000-01-01",
      "2026-1-1",
      "2026-01-01T00:00",
      " 2026-01-01",
      "",
    ]) {
      expect(isCalendarDate(date), date).toBe(false);
    }
    expect(calendarDateSchema.safeParse("2024-02-30").success).toBe(false);
    expect(calendarDateSchema.safeParse("2024-02-29").success).toBe(true);
  });
});
