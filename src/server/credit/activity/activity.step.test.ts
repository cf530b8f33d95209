import { describe, expect, it } from "vitest";
import { type ActivityBody, CREDIT_MESSAGES } from "../../../contract";
import { useStepHarness } from "../../testing/step-harness";
import { attestationStep } from "../attestations/attestations.service";
import { evaluationStep } from "../evaluations/evaluations.service";
import { acknowledgeStep } from "./activity.service";

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describe("the activity page as the only step of completion", () => {
  const h = useStepHarness([acknowledgeStep]);

  async function setup(activity: Partial<ActivityBody>) {
    const course = await h.course({ modules: 2 });
    await h.saveActivity(course.id, activity);
    const learner = await h.enrolledLearner(course);
    const completeFirst = () =>
      h.enrollments.completeModule({
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[0]!.id,
      });
    return { course, learner, completeFirst };
  }

  it("refuses the modules until About this activity is acknowledged", async () => {
    const { course, learner, completeFirst } = await setup({ acknowledgementRequired: true });
    await expect(completeFirst()).rejects.toMatchObject({
      statusCode: 409,
      message: "Read and acknowledge About this activity before starting the course.",
    });
    const standing = await h.expectHeldAt(learner.id, course.id, "acknowledge");
    expect(standing.steps).toMatchObject([
      { key: "acknowledge", label: "About this activity" },
      { key: "modules", done: false },
      { key: "certificate", done: false },
    ]);

    await h.activity.acknowledge(learner.id, course.id);
    await h.completeModules(learner.id, course);
    await h.expectCompleted(learner.id, course.id);
  });

  it("lets a course that asks for no acknowledgement start at once", async () => {
    const { course, learner } = await setup({ acknowledgementRequired: false });
    await h.completeModules(learner.id, course);
    await h.expectCompleted(learner.id, course.id);
  });

  const closings = [
    {
      label: "past the activity's expiration date",
      activity: () => ({ expirationDate: dayOf(new Date(Date.now() + DAY_MS)) }),
      later: 3 * DAY_MS,
      message: CREDIT_MESSAGES.courseExpired,
      takesNewLearners: false,
    },
    {
      label: "past the learner's validity window",
      activity: () => ({ enrollmentValidDays: 1 }),
      later: 2 * DAY_MS,
      message: CREDIT_MESSAGES.enrollmentExpired,
      // A new enrollment's window starts now.
      takesNewLearners: true,
    },
  ];

  it.each(closings)("refuses every step $label", async (closing) => {
    const { course, learner, completeFirst } = await setup({
      acknowledgementRequired: true,
      ...closing.activity(),
    });
    h.clock.set(new Date(Date.now() + closing.later));
    const refused = { statusCode: 409, message: closing.message };
    await expect(h.activity.acknowledge(learner.id, course.id)).rejects.toMatchObject(refused);
    await expect(completeFirst()).rejects.toMatchObject(refused);
    const standing = await h.enrollments.completion(learner.id, course.id);
    expect(standing.steps.every((s) => !s.done)).toBe(true);
    expect(await h.auditTypes()).not.toContain("activity.acknowledged");

    const enrolling = h.enrollments.enroll({ userId: (await h.learner()).id, courseId: course.id });
    if (closing.takesNewLearners) await enrolling;
    else await expect(enrolling).rejects.toMatchObject(refused);
  });
});

describe("the course's activity as the credit steps read it", () => {
  // One loader for every step that decides by the activity alone, so a course's row is read
  // once per credit context, not once per step (the certificate adds the credit types to it).
  it("is loaded by one loader for the acknowledgement, evaluation and attestation", () => {
    for (const step of [evaluationStep, attestationStep]) {
      expect(step.load).toBe(acknowledgeStep.load);
    }
  });
});
