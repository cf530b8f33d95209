import { describe, expect, it } from "vitest";
import { averageHours, formatMinutes, matchesCourse } from "./course-figures";

describe("matchesCourse", () => {
  const course = { title: "SQL Fundamentals", category: "Database" as const };

  it("matches the title or the category, ignoring case and spaces", () => {
    expect(matchesCourse(course, "  fundamentals ")).toBe(true);
    expect(matchesCourse(course, "DATA")).toBe(true);
    expect(matchesCourse(course, "design")).toBe(false);
  });

  it("matches everything for an empty query", () => {
    expect(matchesCourse(course, "   ")).toBe(true);
  });
});

describe("averageHours", () => {
  it("rounds to one decimal and copes with no courses", () => {
    expect(averageHours([])).toBe("0");
    expect(averageHours([{ duration: 6 }])).toBe("6");
    expect(averageHours([{ duration: 1 }, { duration: 2 }, { duration: 4 }])).toBe("2.3");
  });
});

describe("formatMinutes", () => {
  it("reads naturally", () => {
    expect(formatMinutes(0)).toBe("0 min");
    expect(formatMinutes(45)).toBe("45 min");
    expect(formatMinutes(120)).toBe("2 h");
    expect(formatMinutes(85)).toBe("1 h 25 min");
  });
});
