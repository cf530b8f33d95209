import type { Completion } from "@contract";
import { describe, expect, it } from "vitest";
import { blockingStep, formatDay, hasExtraSteps } from "./credit-steps";

const step = (key: Completion["steps"][number]["key"], required: boolean, done = false) => ({
  key,
  label: key,
  required,
  done,
  doneAt: done ? "2026-11-20T10:00:00.000Z" : null,
});

const completion = (steps: Completion["steps"]): Completion => ({
  courseId: "c1",
  isCompleted: false,
  steps,
  next: steps.find((s) => s.required && !s.done)?.key ?? null,
});

describe("hasExtraSteps", () => {
  it("is false for a course that asks only for its modules (and ends with its certificate)", () => {
    expect(
      hasExtraSteps(
        completion([
          step("acknowledge", false),
          step("modules", true),
          step("exam", false),
          step("certificate", true),
        ]),
      ),
    ).toBe(false);
  });

  it("is true as soon as another step is required", () => {
    expect(
      hasExtraSteps(
        completion([step("modules", true), step("evaluation", true), step("certificate", true)]),
      ),
    ).toBe(true);
  });
});

describe("blockingStep", () => {
  it("names the first required step before the one asked for that is not done", () => {
    const c = completion([
      step("acknowledge", true, true),
      step("modules", true),
      step("review", false),
      step("evaluation", true),
      step("attestation", true),
    ]);
    expect(blockingStep(c, "attestation")?.key).toBe("modules");
    expect(blockingStep(c, "modules")).toBeUndefined();
  });
});

describe("formatDay", () => {
  it("prints a whole day as set, whatever the viewer's time zone, and a dash when unset", () => {
    expect(formatDay("2027-03-01")).toBe("March 1, 2027");
    expect(formatDay(null)).toBe("—");
  });
});
