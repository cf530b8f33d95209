import { describe, expect, it } from "vitest";
import {
  displayProgress,
  enrollmentStatus,
  moduleStates,
  resumeModuleId,
  summarizeLearning,
} from "./enrollment-status";

const e = (progress: number, isCompleted = false) => ({ progress, isCompleted });

describe("enrollmentStatus", () => {
  it("follows SPEC section 4", () => {
    expect(enrollmentStatus(e(0))).toBe("not-started");
    expect(enrollmentStatus(e(33))).toBe("in-progress");
    expect(enrollmentStatus(e(100, true))).toBe("completed");
    // A completed course whose admin added a module stays completed.
    expect(enrollmentStatus(e(75, true))).toBe("completed");
    expect(displayProgress(e(75, true))).toBe(100);
  });
});

describe("summarizeLearning", () => {
  it("counts, averages and levels", () => {
    const summary = summarizeLearning([e(100, true), e(67), e(0), e(33)]);
    expect(summary.total).toBe(4);
    expect(summary.completed).toHaveLength(1);
    expect(summary.inProgress).toHaveLength(2);
    expect(summary.averageProgress).toBe(50);
    expect(summary.level).toBe(3);
    expect(summary.nextLevelAt).toBe(60);
    expect(summary.recent).toHaveLength(3);
  });

  it("starts at level 1 with nothing enrolled and tops out at level 6", () => {
    expect(summarizeLearning([])).toMatchObject({ total: 0, averageProgress: 0, level: 1 });
    expect(summarizeLearning([e(100, true)])).toMatchObject({ level: 6, nextLevelAt: null });
    expect(summarizeLearning([e(19)]).level).toBe(1);
    expect(summarizeLearning([e(20)]).level).toBe(2);
  });
});

describe("module states", () => {
  const modules = [
    { id: "module_1000000001" },
    { id: "module_1000000002" },
    { id: "module_1000000003" },
  ];

  it("opens the first module and each one after a completed module", () => {
    expect([...moduleStates(modules, []).values()]).toEqual(["available", "locked", "locked"]);
    expect([...moduleStates(modules, ["module_1000000001"]).values()]).toEqual([
      "completed",
      "available",
      "locked",
    ]);
  });

  it("resumes at the first module not completed, or the first of a finished course", () => {
    expect(resumeModuleId(modules, [])).toBe("module_1000000001");
    expect(resumeModuleId(modules, ["module_1000000001"])).toBe("module_1000000002");
    expect(
      resumeModuleId(
        modules,
        modules.map((m) => m.id),
      ),
    ).toBe("module_1000000001");
    expect(resumeModuleId([], [])).toBeUndefined();
  });
});
