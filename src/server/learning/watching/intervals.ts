import type { Intervals } from "./watching.table";

/** Stored seconds keep millisecond precision: enough for any player, and stable in JSON. */
export const roundSeconds = (value: number) => Math.round(value * 1000) / 1000;

/** Sorted, disjoint, touching intervals joined; empty ones dropped. */
export function mergeIntervals(intervals: Intervals): Intervals {
  const sorted = intervals.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Intervals = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export const totalSeconds = (intervals: Intervals) =>
  intervals.reduce((sum, [s, e]) => sum + (e - s), 0);

/** The parts of [start, end] that `covered` (merged) does not cover, in order. */
export function uncoveredParts(covered: Intervals, start: number, end: number): Intervals {
  const parts: Intervals = [];
  let cursor = start;
  for (const [s, e] of covered) {
    if (e <= cursor) continue;
    if (s >= end) break;
    if (s > cursor) parts.push([cursor, Math.min(s, end)]);
    cursor = Math.max(cursor, e);
    if (cursor >= end) break;
  }
  if (cursor < end) parts.push([cursor, end]);
  return parts;
}

/**
 * Adds the reported intervals to what was already watched, crediting at most `budget` new
 * seconds, taken in the order the learner played them. Replayed parts add nothing; played
 * parts beyond the budget (fast playback, forged reports) stay unwatched.
 */
export function creditIntervals(
  watched: Intervals,
  reported: Intervals,
  budget: number,
): Intervals {
  let covered = mergeIntervals(watched.map(([s, e]) => [s, e]));
  let left = Math.max(0, budget);
  for (const [start, end] of reported) {
    if (left <= 0) break;
    for (const [s, e] of uncoveredParts(covered, start, end)) {
      const take = Math.min(e - s, left);
      if (take <= 0) break;
      covered = mergeIntervals([...covered, [s, s + take]]);
      left -= take;
    }
  }
  return covered.map(([s, e]) => [roundSeconds(s), roundSeconds(e)]);
}
