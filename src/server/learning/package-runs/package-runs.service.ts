import { defineStep } from "../enrollments/completion-steps";
import { completedByContent } from "./package-runs.errors";

/**
 * A package module (SCORM or cmi5) is complete when its content says so, as the package's
 * rules decide (SCORM completed or passed, cmi5 moveOn): a learner's own 'Mark as Complete'
 * never completes it. As a rule on each module, it refuses before any other module rule,
 * whose measures (a video watched) do not apply to a package.
 */
export const packageCompletionStep = defineStep<null>({
  key: "modules",
  load: async () => null,
  async checkModule(_tx, { course, moduleId }) {
    const module = course.modules.find((m) => m.id === moduleId);
    if (module && module.kind !== "video") throw completedByContent();
  },
});
