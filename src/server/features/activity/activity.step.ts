import { defineStep } from "../enrollments/completion-steps";
import { acknowledgeFirst } from "./activity.errors";
import { type ActivitySettings, loadActivity } from "./activity.read-model";
import { createActivityRepository } from "./activity.repository";
import { assertOpen } from "./activity-rules";

/**
 * The activity page as a step of completion: acknowledged before the modules when the course
 * asks for it. Its dates also close every step of the course: nothing is taken after the
 * expiration date, or after the enrollment's validity window.
 */
export const acknowledgeStep = defineStep<ActivitySettings>({
  key: "acknowledge",
  load: loadActivity,
  record: {
    isRequired: (activity) => activity?.acknowledgementRequired ?? false,
    async doneAt(tx, enrollment) {
      const row = await createActivityRepository(tx).acknowledgementOf(enrollment.id);
      return row?.acknowledgedAt ?? null;
    },
  },
  // The player says what opening the first module waits for in its own words.
  refusal: (later) => (later === "modules" ? acknowledgeFirst() : undefined),
  assertOpen: (enrollment, activity, now) => assertOpen(activity, enrollment, now),
});
