import { defineStep } from "../enrollments/completion-steps";
import { current } from "./beat";
import { notSeatedEnough, notWatchedEnough } from "./watching.errors";
import { createWatchingRepository } from "./watching.repository";
import { evaluate } from "./watching.service";

/**
 * Verified watching as a rule on completing a module: in a verified course the watched share
 * and seat time must be met before 'Mark as Complete' counts. Its settings are the course's
 * own completion policy, which every step already has.
 */
export const watchingStep = defineStep<null>({
  key: "modules",
  load: async () => null,
  async checkModule(tx, { enrollment, course, moduleId }) {
    if (course.completionPolicy !== "verified") return;
    const module = course.modules.find((m) => m.id === moduleId)!;
    const key = { userId: enrollment.userId, courseId: course.id, moduleId };
    const row = current(await createWatchingRepository(tx).findWatch(key), module, course);
    const e = evaluate(row, course);
    if (!e.watchMet) throw notWatchedEnough(course.minWatchPercent);
    if (!e.seatMet) throw notSeatedEnough(course.minSeatSeconds ?? 0);
  },
});
