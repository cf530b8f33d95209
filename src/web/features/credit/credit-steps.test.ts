import type { Completion } from "@contract";
import { describe, expect, it } from "vitest";
import {
  blockingStep,
  checklistNextKey,
  checklistSteps,
  hasExtraSteps,
  nextStepLink,
} from "./credit-steps";

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

describe("checklistSteps", () => {
  it("lists review questions before the modules they gate, and leaves other courses as they are", () => {
    const c = completion([
      step("acknowledge", true, true),
      step("modules", true),
      step("review", true),
      step("exam", true),
      step("evaluation", false),
      step("certificate", true),
    ]);
    expect(checklistSteps(c).map((s) => s.key)).toEqual([
      "acknowledge",
      "review",
      "modules",
      "exam",
      "certificate",
    ]);
    const plain = completion([step("modules", true), step("review", false), step("exam", true)]);
    expect(checklistSteps(plain).map((s) => s.key)).toEqual(["modules", "exam"]);
  });

  it("marks the first of review and modules not done while either is next", () => {
    const working = completion([step("modules", true), step("review", true), step("exam", true)]);
    expect(working.next).toBe("modules");
    expect(checklistNextKey(working)).toBe("review");
    // Questions added after the modules were done: the review alone is left.
    const late = completion([
      step("modules", true, true),
      step("review", true),
      step("exam", true),
    ]);
    expect(checklistNextKey(late)).toBe("review");
    const after = completion([
      step("modules", true, true),
      step("review", true, true),
      step("exam", true),
    ]);
    expect(checklistNextKey(after)).toBe("exam");
    expect(checklistNextKey({ ...after, isCompleted: true, next: null })).toBeNull();
  });
});

describe("nextStepLink", () => {
  it("leads to the exam, the evaluation or the attestation, never to the player's own steps", () => {
    const at = (done: number) =>
      completion(
        (["modules", "exam", "evaluation", "attestation", "certificate"] as const).map((key, i) =>
          step(key, true, i < done),
        ),
      );
    expect(nextStepLink(at(0))).toBeNull();
    expect(nextStepLink(at(1))).toEqual({
      key: "exam",
      label: "Take the final exam",
      path: "/courses/c1/exam",
    });
    expect(nextStepLink(at(2))?.label).toBe("Complete the evaluation");
    expect(nextStepLink(at(3))).toMatchObject({
      label: "Attest and claim credit",
      path: "/courses/c1/attestation",
    });
    expect(nextStepLink(at(4))).toBeNull();
    expect(nextStepLink({ ...at(2), isCompleted: true, next: null })).toBeNull();
  });
});
