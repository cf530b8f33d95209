import { defineStep } from "../enrollments/completion-steps";
import { notSatisfied, notSeatedInPackage } from "./package-runs.errors";
import { createPackageRunsRepository } from "./package-runs.repository";

/**
 * A package module (SCORM or cmi5) is complete when its content says so, as the package's
 * rules decide (SCORM completed or passed, cmi5 moveOn), and, in a verified course, once
 * the portal saw it open for the course's minimum seat time: a learner's own 'Mark as
 * Complete' never completes it sooner. As a rule on each module, it answers for package
 * modules before any other module rule, whose measures (a video watched) do not apply.
 */
export const packageCompletionStep = defineStep<null>({
  key: "modules",
  load: async () => null,
  async checkModule(tx, { enrollment, course, moduleId }) {
    const module = course.modules.find((m) => m.id === moduleId);
    if (!module || module.kind === "video") return;
    const attempt = await createPackageRunsRepository(tx).findOpen({
      userId: enrollment.userId,
      courseId: course.id,
      moduleId,
    });
    if (!attempt?.satisfiedAt) throw notSatisfied();
    const minSeat = course.completionPolicy === "verified" ? (course.minSeatSeconds ?? 0) : 0;
    if (attempt.seatSeconds < minSeat) throw notSeatedInPackage(minSeat - attempt.seatSeconds);
  },
});
