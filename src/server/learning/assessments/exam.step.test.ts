import { beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_EXAM_SETTINGS,
  type ExamSettingsBody,
  type Question,
  questionBodySchema,
} from "../../../contract";
import { answersFor, questionBody } from "../../testing/assessments";
import { HARNESS_ADMIN, useStepHarness } from "../../testing/step-harness";
import { createAssessmentsRepository } from "./assessments.repository";
import { createExamService, type ExamService, examStep } from "./exam.service";

describe("the final exam as the only step of completion", () => {
  const h = useStepHarness([examStep]);
  let exam: ExamService;
  beforeAll(() => {
    exam = createExamService({ db: h.db, enrollments: h.enrollments });
  });

  /** A published one-module course with two final questions, and a learner done with its module. */
  async function setup(settings: Partial<ExamSettingsBody>) {
    const draft = await h.draftCourse();
    const bank: Question[] = [];
    for (const n of [1, 2]) {
      bank.push(
        await h.questions.create(
          draft.id,
          questionBodySchema.parse(questionBody(n)),
          HARNESS_ADMIN,
        ),
      );
    }
    await h.questions.saveSettings(
      draft.id,
      {
        ...DEFAULT_EXAM_SETTINGS,
        questionCount: 2,
        passMark: 100,
        ...settings,
      },
      HARNESS_ADMIN,
    );
    const course = await h.publish(draft.id);
    const learner = await h.enrolledLearner(course);
    await h.completeModules(learner.id, course);
    /** Starts an attempt and submits it, every answer right or every answer wrong. */
    const sit = async (right: boolean) => {
      const { attempt } = await exam.start(learner, course.id);
      const answers = answersFor(attempt.questions, bank, () => right);
      return exam.submit(learner.id, attempt.id, answers);
    };
    return { course, learner, sit };
  }

  it("completes the course only at a passing attempt, whose score the certificate records", async () => {
    const { course, learner, sit } = await setup({ enabled: true });
    await h.expectHeldAt(learner.id, course.id, "exam");

    expect(await sit(false)).toMatchObject({ score: 0, passed: false });
    await h.expectHeldAt(learner.id, course.id, "exam");

    expect(await sit(true)).toMatchObject({ score: 100, passed: true });
    const certificate = await h.expectCompleted(learner.id, course.id);
    const enrollment = await h.enrollments.findRow(learner.id, course.id);
    const pass = await createAssessmentsRepository(h.db).passedAttempt(enrollment!.id);
    expect(certificate).toMatchObject({ examScore: 100, examPassedAt: pass!.submittedAt });
  });

  it("asks nothing of a course whose exam is off: its modules complete it", async () => {
    const { course, learner } = await setup({ enabled: false });
    const certificate = await h.expectCompleted(learner.id, course.id);
    expect(certificate).toMatchObject({ examScore: null, examPassedAt: null });
    const standing = await h.enrollments.completion(learner.id, course.id);
    expect(standing.steps.find((s) => s.key === "exam")).toMatchObject({ required: false });
  });
});
