import { beforeAll, describe, expect, it } from "vitest";
import { ASSESSMENT_MESSAGES, DEFAULT_EXAM_SETTINGS, questionBodySchema } from "../../../contract";
import { answersFor, questionBody } from "../../testing/assessments";
import { HARNESS_ADMIN, useStepHarness } from "../../testing/step-harness";
import { createReviewService, type ReviewService, reviewStep } from "./review.service";

describe("review questions as the only step of completion", () => {
  const h = useStepHarness([reviewStep]);
  let review: ReviewService;
  beforeAll(() => {
    review = createReviewService({
      db: h.db,
      courses: h.courses,
      enrollments: h.enrollments,
    });
  });

  /** A published two-module course with one review question on its first module. */
  async function setup(reviewRequired: boolean) {
    const draft = await h.draftCourse({ modules: 2 });
    const first = draft.modules[0]!;
    const body = questionBody(1, { pool: "review", moduleId: first.id });
    const question = await h.questions.create(
      draft.id,
      questionBodySchema.parse(body),
      HARNESS_ADMIN,
    );
    await h.questions.saveSettings(
      draft.id,
      { ...DEFAULT_EXAM_SETTINGS, reviewRequired },
      HARNESS_ADMIN,
    );
    const course = await h.publish(draft.id);
    const learner = await h.enrolledLearner(course);
    const complete = (index: number) =>
      h.enrollments.completeModule({
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[index]!.id,
      });
    return { course, learner, question, first, complete };
  }

  it("refuses completing a module until its review questions are answered, right or wrong", async () => {
    const { course, learner, question, first, complete } = await setup(true);
    await expect(complete(0)).rejects.toMatchObject({
      statusCode: 409,
      message: ASSESSMENT_MESSAGES.reviewFirst,
    });
    const standing = await h.enrollments.completion(learner.id, course.id);
    expect(standing.steps).toMatchObject([
      { key: "modules", done: false },
      { key: "review", label: "Review questions", required: true, done: false },
      { key: "certificate", done: false },
    ]);

    const wrong = answersFor([question], [question], () => false);
    await review.answer(learner.id, course.id, first.id, wrong);
    expect(JSON.parse(await complete(0)).completedModules).toEqual([first.id]);
    // The second module has no review question: nothing holds it.
    await complete(1);
    await h.expectCompleted(learner.id, course.id);
  });

  it("holds nothing back in a course whose settings make review optional", async () => {
    const { course, learner } = await setup(false);
    await h.completeModules(learner.id, course);
    await h.expectCompleted(learner.id, course.id);
    const standing = await h.enrollments.completion(learner.id, course.id);
    expect(standing.steps.find((s) => s.key === "review")).toMatchObject({ required: false });
  });
});
