import { describe, expect, it } from "vitest";
import { creditIntervals, mergeIntervals, totalSeconds, uncoveredParts } from "./intervals";

describe("watched intervals", () => {
  it("merges overlapping, touching and unordered intervals and drops empty ones", () => {
    expect(
      mergeIntervals([
        [10, 20],
        [0, 5],
        [5, 8],
        [15, 25],
        [30, 30],
      ]),
    ).toEqual([
      [0, 8],
      [10, 25],
    ]);
  });

  it("finds the uncovered parts of a range", () => {
    const covered: [number, number][] = [
      [0, 5],
      [10, 15],
    ];
    expect(uncoveredParts(covered, 2, 20)).toEqual([
      [5, 10],
      [15, 20],
    ]);
    expect(uncoveredParts(covered, 11, 14)).toEqual([]);
    expect(uncoveredParts([], 3, 4)).toEqual([[3, 4]]);
  });

  it("credits a replay nothing and a seek only what was played", () => {
    const first = creditIntervals([], [[0, 10]], 100);
    expect(first).toEqual([[0, 10]]);
    const replay = creditIntervals(first, [[2, 8]], 100);
    expect(replay).toEqual([[0, 10]]);
    const seek = creditIntervals(first, [[50, 55]], 100);
    expect(seek).toEqual([
      [0, 10],
      [50, 55],
    ]);
    expect(totalSeconds(seek)).toBe(15);
  });

  it("credits at most the budget, in playing order", () => {
    const result = creditIntervals(
      [[0, 4]],
      [
        [0, 10],
        [20, 30],
      ],
      8,
    );
    // 8 new seconds: 4..10, then 20..22.
    expect(result).toEqual([
      [0, 10],
      [20, 22],
    ]);
  });
});
