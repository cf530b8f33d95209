import { describe, expect, it } from "vitest";
import { lengthMismatch, lengthMismatchText, minutesOfVideo } from "./video-length";

describe("a module's stated length against its video's", () => {
  it.each([
    // stated minutes, video seconds, flagged
    [1, 60, false],
    [1, 55, false], // 5 s over: within 10 % of 55 s
    [1, 54, true], // 6 s over 54 s: just past 10 %
    [10, 600, false],
    [10, 545.5, false],
    [10, 545, true],
    [15, 12, true],
    [60, 3, true],
  ])("%i min for a %f-second video is flagged: %s", (stated, seconds, flagged) => {
    expect(lengthMismatch(stated, seconds)).toBe(flagged);
  });

  it("flags nothing while the video's length is unknown", () => {
    expect(lengthMismatch(15, null)).toBe(false);
  });

  it("defaults a module's length to its video's whole minutes, at least 1", () => {
    expect([3, 29, 31, 90, 754].map(minutesOfVideo)).toEqual([1, 1, 1, 2, 13]);
  });

  it("says both lengths", () => {
    expect(lengthMismatchText(15, 12.4)).toBe("States 15 minutes; its video plays 12 s.");
    expect(lengthMismatchText(1, 754)).toBe("States 1 minute; its video plays 12 min 34 s.");
  });
});
