import type { ExamSettingsBody, Question, QuestionInput, QuestionKind } from "../../contract";
import { DEFAULT_EXAM_SETTINGS } from "../../contract";
import { publish } from "./courses";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
} from "./learning";
import type { TestContext } from "./test-app";

/** A valid question body: option "Right n" is the correct one (two for `multiple`). */
export function questionBody(
  n: number,
  overrides: Partial<QuestionInput> & { kind?: QuestionKind } = {},
): QuestionInput {
  const kind = overrides.kind ?? "single";
  const options =
    kind === "true_false"
      ? [
          { text: "True", correct: true, feedback: `True is right for ${n}` },
          { text: "False", correct: false, feedback: `False is wrong for ${n}` },
        ]
      : kind === "multiple"
        ? [
            { text: `Right ${n}`, correct: true, feedback: `Yes ${n}` },
            { text: `Also right ${n}`, correct: true },
            { text: `Wrong ${n}`, correct: false, feedback: `No ${n}` },
          ]
        : [
            { text: `Right ${n}`, correct: true, feedback: `Yes ${n}` },
            { text: `Wrong ${n}`, correct: false, feedback: `No ${n}` },
            { text: `Also wrong ${n}`, correct: false },
          ];
  return {
    pool: "final",
    kind,
    text: `Question ${n}?`,
    options,
    explanation: `Because ${n}.`,
    ...overrides,
  };
}

export async function addQuestion(
  ctx: TestContext,
  adminCookie: string,
  courseId: string,
  body: QuestionInput,
): Promise<Question> {
  const response = await call(ctx, "POST", `/api/courses/${courseId}/questions`, {
    cookie: adminCookie,
    payload: body,
  });
  if (response.statusCode !== 201) throw new Error(`add question: ${response.body}`);
  return response.json() as Question;
}

export async function saveExamSettings(
  ctx: TestContext,
  adminCookie: string,
  courseId: string,
  settings: Partial<ExamSettingsBody>,
) {
  const response = await call(ctx, "PUT", `/api/courses/${courseId}/exam-settings`, {
    cookie: adminCookie,
    payload: { ...DEFAULT_EXAM_SETTINGS, ...settings },
  });
  if (response.statusCode !== 200) throw new Error(`exam settings: ${response.body}`);
  return response.json();
}

/**
 * A published course of `modules` modules with a final pool of `pool` questions and the
 * exam on, and a signed-in learner enrolled in it who completed every module.
 */
export async function buildExamCourse(
  ctx: TestContext,
  video: (adminCookie: string) => Promise<string>,
  options: {
    modules?: number;
    pool?: number;
    kinds?: QuestionKind[];
    settings?: Partial<ExamSettingsBody>;
    completeModules?: boolean;
  } = {},
) {
  const admin = await quickAdmin(ctx);
  const adminCookie = await signInAs(ctx, admin);
  const draft = await buildPublishedCourse(ctx, adminCookie, {
    video: await video(adminCookie),
    modules: options.modules ?? 1,
    draft: true,
  });
  const questions: Question[] = [];
  for (let n = 1; n <= (options.pool ?? 4); n++) {
    const kinds = options.kinds ?? ["single"];
    questions.push(
      await addQuestion(
        ctx,
        adminCookie,
        draft.id,
        questionBody(n, { kind: kinds[(n - 1) % kinds.length] }),
      ),
    );
  }
  await saveExamSettings(ctx, adminCookie, draft.id, {
    enabled: true,
    questionCount: Math.min(options.pool ?? 4, 4),
    ...options.settings,
  });
  const course = await publish(ctx, adminCookie, draft.id);
  const learner = await quickLearner(ctx);
  const cookie = await signInAs(ctx, learner);
  const enrollment = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
  if (options.completeModules !== false) {
    await completeViaApi(ctx, cookie, learner.id, course, course.modules.length);
  }
  return { admin, adminCookie, course, questions, learner, cookie, enrollment };
}

/** The answers that get every presented question right (or wrong), from the bank's truth. */
export function answersFor(
  presented: { id: string; options: { id: string }[] }[],
  bank: Question[],
  right: (questionIndex: number) => boolean = () => true,
) {
  return presented.map((q, i) => {
    const truth = bank.find((b) => b.id === q.id)!;
    const correct = truth.options.filter((o) => o.correct).map((o) => o.id);
    const wrong = truth.options.find((o) => !o.correct)!.id;
    return { questionId: q.id, optionIds: right(i) ? correct : [wrong] };
  });
}
