import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type ActivityBody, CREDIT_MESSAGES } from "../../../contract";
import { auditEvents } from "../../platform/audit/audit.table";
import { useStepHarness } from "../../testing/step-harness";
import { attestationStep } from "../attestations/attestations.service";
import { courseAttestations } from "../attestations/attestations.table";
import { evaluationStep } from "../evaluations/evaluations.service";
import { courseEvaluations } from "../evaluations/evaluations.table";
import { acknowledgeStep } from "./activity.service";
import { courseActivity } from "./activity.table";

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

describe("the activity page's settings, each kept by its own feature", () => {
  const h = useStepHarness([acknowledgeStep, evaluationStep, attestationStep]);

  it("saves each part of the page to its owner, and each step reads its own", async () => {
    const course = await h.course({ modules: 1 });
    await h.saveActivity(course.id, {
      acknowledgementRequired: true,
      evaluationRequired: true,
      attestationRequired: true,
      attestationText: "I attest.",
    });
    const [activity] = await h.db
      .select()
      .from(courseActivity)
      .where(eq(courseActivity.courseId, course.id));
    expect(activity).toMatchObject({ acknowledgementRequired: true });
    expect(Object.keys(activity!)).not.toContain("evaluationRequired");
    const [evaluation] = await h.db
      .select()
      .from(courseEvaluations)
      .where(eq(courseEvaluations.courseId, course.id));
    expect(evaluation).toMatchObject({ evaluationRequired: true, evaluationItems: null });
    const [attestation] = await h.db
      .select()
      .from(courseAttestations)
      .where(eq(courseAttestations.courseId, course.id));
    expect(attestation).toMatchObject({
      attestationRequired: true,
      attestationText: "I attest.",
    });
    const learner = await h.enrolledLearner(course);
    const standing = await h.enrollments.completion(learner.id, course.id);
    expect(standing.steps.filter((s) => s.required).map((s) => s.key)).toEqual([
      "acknowledge",
      "modules",
      "evaluation",
      "attestation",
      "certificate",
    ]);
    // One audit event of the page's save, naming every field that changed in the body's order.
    const saved = await h.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.type, "activity.updated"));
    expect(
      saved.map((e) => (e.details.changes as { field: string }[]).map((c) => c.field)),
    ).toEqual([
      ["acknowledgementRequired", "evaluationRequired", "attestationRequired", "attestationText"],
    ]);
  });
});
