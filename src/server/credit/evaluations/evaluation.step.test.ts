import { describe, expect, it } from "vitest";
import { CREDIT_MESSAGES } from "../../../contract";
import { HARNESS_ADMIN, useStepHarness } from "../../testing/step-harness";
import { evaluationStep } from "./evaluations.service";

/** Answers to the evaluation every course starts from. */
const DEFAULT_ANSWERS = [
  { itemId: "objectives", value: 5 },
  { itemId: "relevance", value: 4 },
  { itemId: "balance", value: 5 },
  { itemId: "faculty", value: 3 },
  { itemId: "comments", value: "Clear and useful." },
];

describe("the evaluation as the only step of completion", () => {
  const h = useStepHarness([evaluationStep]);

  async function setup(evaluationRequired: boolean) {
    const course = await h.course({ modules: 2 });
    await h.saveActivity(course.id, { evaluationRequired });
    const learner = await h.enrolledLearner(course);
    return { course, learner };
  }

  it("holds completion after the modules until the evaluation is submitted", async () => {
    const { course, learner } = await setup(true);
    const submit = () =>
      h.evaluations.submitEvaluation(learner.id, course.id, { answers: DEFAULT_ANSWERS });
    await expect(submit()).rejects.toMatchObject({
      statusCode: 409,
      message: CREDIT_MESSAGES.outOfOrder("modules"),
    });

    await h.completeModules(learner.id, course);
    await h.expectHeldAt(learner.id, course.id, "evaluation");

    await submit();
    await h.expectCompleted(learner.id, course.id);
  });

  it("asks nothing of a course without an evaluation", async () => {
    const { course, learner } = await setup(false);
    await h.completeModules(learner.id, course);
    await h.expectCompleted(learner.id, course.id);
  });

  // Wired alone, the evaluation still reads the course's activity (through its own step's
  // settings), so the answers are checked against the course's own form, not the default one.
  it("takes the answers to the course's own evaluation form", async () => {
    const { course, learner } = await setup(true);
    await h.evaluations.saveEvaluationForm(
      course.id,
      {
        items: [{ kind: "likert", text: "Would you recommend this course?", required: true }],
      },
      HARNESS_ADMIN,
    );
    const form = await h.evaluations.evaluationForm({ id: learner.id, role: "learner" }, course.id);
    await h.completeModules(learner.id, course);
    const answers = form.items.map((item) => ({ itemId: item.id, value: 5 }));
    await h.evaluations.submitEvaluation(learner.id, course.id, { answers });
    await h.expectCompleted(learner.id, course.id);
  });
});
