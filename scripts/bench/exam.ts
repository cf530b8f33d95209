/**
 * The exam scenario's course, made through the portal's API while it runs, as an
 * administrator and learners would make it: a published course whose final exam draws 20 of
 * 40 questions with unlimited attempts, and the signed-in learners enrolled in it with every
 * module complete. The server validates and computes all of it (option ids, publish checks,
 * progress). It is made just before the scenario, so the scenarios before it see the
 * learners' dashboards as the seed made them, and through the API because a PGlite database
 * has one user, the portal, while it runs. `restore` (fixtures.ts) deletes it afterwards.
 */
import {
  type Course,
  courseSchema,
  DEFAULT_EXAM_SETTINGS,
  type QuestionInput,
  questionSchema,
} from "../../src/contract";
import type { ExamItem } from "./types";

/** The course's title: how `restore` finds it, also after an interrupted run. */
export const EXAM_COURSE_TITLE = "Benchmark final exam";
const MODULES = 3;
const POOL = 40;
const DRAWN = 20;

interface Caller {
  cookie: string;
  ip: string;
}

async function call(
  base: string,
  who: Caller,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie: who.cookie,
      "x-forwarded-for": who.ip,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Runs `task` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

const question = (n: number): QuestionInput => ({
  pool: "final",
  kind: "single",
  text: `Benchmark question ${n}: which option is right?`,
  options: [
    { text: `Right ${n}`, correct: true, feedback: "Yes." },
    { text: `Wrong ${n}`, correct: false, feedback: "No." },
    { text: `Also wrong ${n}`, correct: false },
    { text: `Wrong again ${n}`, correct: false },
  ],
  explanation: `Option "Right ${n}" is right.`,
});

export interface ExamCourse {
  courseId: string;
  /** A wrong option of each question of the final pool, by question id. */
  wrongOption: Record<string, string>;
  summary: string;
}

/**
 * Creates the course and enrolls `learners` in it with every module complete. `videoPath`
 * is a ready video object the modules play.
 */
export async function createExamCourse(
  base: string,
  admin: Caller,
  learners: (Caller & { userId: string })[],
  videoPath: string,
): Promise<ExamCourse> {
  const draft = courseSchema.parse(
    await call(base, admin, "POST", "/api/courses", {
      title: EXAM_COURSE_TITLE,
      description: "A course made for the exam benchmark and deleted after it.",
      category: "Development",
      duration: 1,
      thumbnail: "",
      modules: [],
    }),
  );
  const path = `/api/courses/${encodeURIComponent(draft.id)}`;
  const stamp = Date.now();
  for (let i = 0; i < MODULES; i++) {
    await call(base, admin, "POST", `${path}/modules`, {
      id: `module_${stamp + i}`,
      title: `Benchmark module ${i + 1}`,
      description: "",
      duration: 5,
      videoUrl: videoPath,
    });
  }
  const wrongOption: Record<string, string> = {};
  for (let n = 1; n <= POOL; n++) {
    const saved = questionSchema.parse(
      await call(base, admin, "POST", `${path}/questions`, question(n)),
    );
    wrongOption[saved.id] = saved.options.find((o) => !o.correct)!.id;
  }
  await call(base, admin, "PUT", `${path}/exam-settings`, {
    ...DEFAULT_EXAM_SETTINGS,
    enabled: true,
    questionCount: DRAWN,
    maxAttempts: null,
  });
  const course: Course = courseSchema.parse(await call(base, admin, "PATCH", `${path}/publish`));
  const moduleIds = course.modules.map((m) => m.id);
  await inParallel(learners, 4, async (learner) => {
    await call(base, admin, "POST", "/api/enrollments", {
      userId: learner.userId,
      courseId: course.id,
    });
    for (const moduleId of moduleIds) {
      await call(base, learner, "POST", "/api/progress/update", {
        userId: learner.userId,
        courseId: course.id,
        moduleId,
      });
    }
  });
  return {
    courseId: course.id,
    wrongOption,
    summary: `${MODULES} modules, ${DRAWN} of ${POOL} questions drawn per attempt, unlimited attempts; ${learners.length} learners enrolled with every module complete`,
  };
}

/**
 * A started attempt's answer (the body of POST /api/courses/{id}/exam/attempts) kept on the
 * learner: the attempt to submit next, with a wrong option for every question, so it never
 * passes and the learner starts anew.
 */
export function holdAttempt(item: ExamItem, body: string, wrongOption: Record<string, string>) {
  const attempt = JSON.parse(body) as {
    id: string;
    questions: { id: string; options: { id: string }[] }[];
  };
  item.attemptId = attempt.id;
  item.answers = attempt.questions.map((q) => ({
    questionId: q.id,
    optionIds: [wrongOption[q.id] ?? q.options[0]!.id],
  }));
}
