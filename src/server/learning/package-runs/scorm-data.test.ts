import { describe, expect, it } from "vitest";
import {
  readScorm12,
  readScorm2004,
  scorm12Seconds,
  scorm12Time,
  scorm2004Seconds,
  scorm2004Time,
} from "./scorm-data";

const noRules = { masteryScore: null, completionThreshold: null, scaledPassingScore: null };

describe("SCORM times", () => {
  it("reads SCORM 1.2 timespans and SCORM 2004 durations, and writes them back", () => {
    expect(scorm12Seconds("0000:02:05.50")).toBe(125.5);
    expect(scorm12Seconds("12:00:00")).toBe(43_200);
    expect(scorm12Seconds("2 minutes")).toBe(0);
    expect(scorm2004Seconds("PT1H2M3.5S")).toBe(3723.5);
    expect(scorm2004Seconds("P1DT1S")).toBe(86_401);
    expect(scorm2004Seconds("PT")).toBe(0);
    expect(scorm2004Seconds(42)).toBe(0);
    expect(scorm12Time(3723.9)).toBe("01:02:03");
    expect(scorm2004Time(3723.9)).toBe("PT1H2M3S");
  });
});

describe("what a SCO's data model says of it", () => {
  it("takes SCORM 1.2's lesson status, score and mastery score", () => {
    expect(readScorm12({ core: { lesson_status: "browsed" } }, false, noRules)).toMatchObject({
      completion: "incomplete",
      success: "unknown",
    });
    // Finishing without a status is completing (SCORM 1.2 RTE).
    expect(readScorm12({ core: { lesson_status: "not attempted" } }, true, noRules)).toMatchObject({
      completion: "completed",
    });
    expect(
      readScorm12(
        { core: { lesson_status: "completed", score: { raw: "15", min: "10", max: "20" } } },
        false,
        { ...noRules, masteryScore: 60 },
      ),
    ).toMatchObject({ completion: "completed", success: "failed", scoreScaled: 0.5 });
    // Without a maximum, a raw score is read as a percentage.
    expect(readScorm12({ core: { score: { raw: "85" } } }, false, noRules).scoreScaled).toBe(0.85);
  });

  it("takes SCORM 2004's statuses, and the LMS's own evaluation of measure and score", () => {
    expect(
      readScorm2004({ completion_status: "completed", success_status: "passed" }, noRules),
    ).toMatchObject({ completion: "completed", success: "passed" });
    expect(
      readScorm2004(
        { completion_status: "incomplete", progress_measure: "0.9" },
        {
          ...noRules,
          completionThreshold: 0.8,
        },
      ),
    ).toMatchObject({ completion: "completed" });
    expect(
      readScorm2004(
        { success_status: "passed", score: { scaled: "0.5" } },
        {
          ...noRules,
          scaledPassingScore: 0.7,
        },
      ),
    ).toMatchObject({ success: "failed", scoreScaled: 0.5 });
    expect(readScorm2004({ session_time: "PT2M" }, noRules).reportedSeconds).toBe(120);
  });
});
