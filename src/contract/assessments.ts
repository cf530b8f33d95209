import { z } from "zod";
import { moduleIdSchema } from "./entities";

/**
 * Review questions and the final exam. The server draws, grades and records; what a
 * learner receives before submitting never holds `correct`, `feedback` or `explanation`.
 */
export const QUESTION_POOLS = ["final", "review"] as const;
export const questionPoolSchema = z.enum(QUESTION_POOLS);
export type QuestionPool = z.infer<typeof questionPoolSchema>;

export const QUESTION_KINDS = ["single", "multiple", "true_false"] as const;
export const questionKindSchema = z.enum(QUESTION_KINDS);
export type QuestionKind = z.infer<typeof questionKindSchema>;

export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  single: "Single choice",
  multiple: "Multiple choice",
  true_false: "True / false",
};

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 8;
export const QUESTION_TEXT_MAX = 2000;
export const OPTION_TEXT_MAX = 500;
export const FEEDBACK_MAX = 1000;
export const EXPLANATION_MAX = 2000;
/** Questions per course: a bank, not an unbounded store. */
export const MAX_QUESTIONS_PER_COURSE = 1000;
/** Rows of one CSV import. */
export const MAX_IMPORT_ROWS = 1000;
/** A submission arriving this long after the deadline still counts as on time (network, clocks). */
export const EXAM_GRACE_SECONDS = 30;
export const DEFAULT_PASS_MARK = 70;

/** Accreditors' floors that the publish checks compare against (NASBA/AICPA QAS self-study). */
export const CPE_MIN_FINAL_PER_CREDIT = 5;
export const CPE_MIN_REVIEW_PER_CREDIT = 3;
export const CPE_MIN_PASS_MARK = 70;

const optionalLongText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const optionBodySchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, "Every option needs text")
    .max(OPTION_TEXT_MAX, `An option must be at most ${OPTION_TEXT_MAX} characters`),
  correct: z.boolean({ error: "Mark each option correct or not" }),
  feedback: optionalLongText(FEEDBACK_MAX, "Feedback"),
});

/** One question as an administrator writes it; the same rules for the form, the API and CSV rows. */
export const questionBodySchema = z
  .object({
    pool: questionPoolSchema,
    moduleId: moduleIdSchema.nullish(),
    kind: questionKindSchema,
    text: z
      .string()
      .trim()
      .min(1, "Question text is required")
      .max(QUESTION_TEXT_MAX, `A question must be at most ${QUESTION_TEXT_MAX} characters`),
    options: z
      .array(optionBodySchema)
      .min(MIN_OPTIONS, `Give between ${MIN_OPTIONS} and ${MAX_OPTIONS} options`)
      .max(MAX_OPTIONS, `Give between ${MIN_OPTIONS} and ${MAX_OPTIONS} options`),
    explanation: optionalLongText(EXPLANATION_MAX, "Explanation"),
  })
  .superRefine((q, ctx) => {
    const correct = q.options.filter((o) => o.correct).length;
    if (correct === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "Mark at least one option correct",
      });
    } else if (q.kind !== "multiple" && correct !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "Mark exactly one option correct for this kind of question",
      });
    }
    if (q.kind === "true_false" && q.options.length !== 2) {
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "A true/false question has exactly 2 options",
      });
    }
    if (q.pool === "review" && !q.moduleId) {
      ctx.addIssue({ code: "custom", path: ["moduleId"], message: "Choose the module" });
    }
    if (q.pool === "final" && q.moduleId) {
      ctx.addIssue({
        code: "custom",
        path: ["moduleId"],
        message: "Final-exam questions belong to no module",
      });
    }
  });
export type QuestionBody = z.infer<typeof questionBodySchema>;
export type QuestionInput = z.input<typeof questionBodySchema>;

export const questionSchema = z.object({
  id: z.string(),
  pool: questionPoolSchema,
  moduleId: z.string().nullable(),
  kind: questionKindSchema,
  text: z.string(),
  options: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      correct: z.boolean(),
      feedback: z.string().nullable(),
    }),
  ),
  explanation: z.string().nullable(),
  position: z.number().int(),
});
export type Question = z.infer<typeof questionSchema>;

export const questionOrderBodySchema = z.object({
  questionIds: z.array(z.string().min(1).max(64)).max(MAX_QUESTIONS_PER_COURSE),
});

/** A CSV file of questions: checked row by row first (`dryRun`), then imported. */
export const questionImportBodySchema = z.object({
  csv: z
    .string()
    .min(1, "The file is empty")
    .max(2_000_000, "The file is too large (2 MB at most)"),
  dryRun: z.boolean(),
});
/** A checked row's question, as the preview shows it (the body after its rules ran). */
export const questionDraftSchema = z.object({
  pool: questionPoolSchema,
  moduleId: z.string().nullable(),
  kind: questionKindSchema,
  text: z.string(),
  options: z.array(
    z.object({ text: z.string(), correct: z.boolean(), feedback: z.string().nullable() }),
  ),
  explanation: z.string().nullable(),
});
export const questionImportRowSchema = z.object({
  /** The row's line in the file (the header is line 1). */
  line: z.number().int(),
  question: questionDraftSchema.nullable(),
  errors: z.array(z.string()),
});
export const questionImportResultSchema = z.object({
  rows: z.array(questionImportRowSchema),
  imported: z.number().int(),
});
export type QuestionImportResult = z.infer<typeof questionImportResultSchema>;

/** The columns an import file has; option and feedback columns may stop before H. */
export const OPTION_LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H"] as const;
export const QUESTION_CSV_COLUMNS = [
  "pool",
  "module",
  "kind",
  "question",
  ...OPTION_LETTERS.map((l) => `option_${l.toLowerCase()}`),
  "correct",
  ...OPTION_LETTERS.map((l) => `feedback_${l.toLowerCase()}`),
  "explanation",
] as const;

export const REVEAL_ANSWERS = ["never", "after_pass", "always"] as const;
export const revealAnswersSchema = z.enum(REVEAL_ANSWERS);
export type RevealAnswers = z.infer<typeof revealAnswersSchema>;

export const examSettingsBodySchema = z.strictObject({
  enabled: z.boolean(),
  questionCount: z
    .number({ error: "Questions per attempt must be a number" })
    .int("Questions per attempt must be a whole number")
    .min(1, "Draw at least 1 question")
    .max(200, "Draw at most 200 questions"),
  passMark: z
    .number({ error: "Pass mark must be a number" })
    .int("Pass mark must be a whole percentage")
    .min(1, "Pass mark must be between 1 and 100")
    .max(100, "Pass mark must be between 1 and 100"),
  maxAttempts: z
    .number({ error: "Attempts allowed must be a number" })
    .int("Attempts allowed must be a whole number")
    .min(1, "Allow at least 1 attempt")
    .max(100, "Allow at most 100 attempts")
    .nullable(),
  timeLimitMinutes: z
    .number({ error: "Time limit must be a number" })
    .int("Time limit must be whole minutes")
    .min(1, "Time limit must be at least 1 minute")
    .max(1440, "Time limit must be at most 24 hours")
    .nullable(),
  revealAnswers: revealAnswersSchema,
  reviewRequired: z.boolean(),
});
export type ExamSettingsBody = z.infer<typeof examSettingsBodySchema>;

export const DEFAULT_EXAM_SETTINGS: ExamSettingsBody = {
  enabled: false,
  questionCount: 10,
  passMark: DEFAULT_PASS_MARK,
  maxAttempts: null,
  timeLimitMinutes: null,
  revealAnswers: "after_pass",
  reviewRequired: true,
};

export const publishCheckSchema = z.object({
  key: z.string(),
  severity: z.enum(["warning", "blocking"]),
  message: z.string(),
});
export type PublishCheck = z.infer<typeof publishCheckSchema>;

/** The administrator's view of a course's assessment: settings, pool sizes, publish checks. */
export const examSettingsSchema = examSettingsBodySchema.extend({
  courseId: z.string(),
  finalPoolSize: z.number().int(),
  reviewCount: z.number().int(),
  checks: z.array(publishCheckSchema),
});
export type ExamSettings = z.infer<typeof examSettingsSchema>;

/** A question as a learner sees it before answering: nothing that gives the answer away. */
export const presentedQuestionSchema = z.object({
  id: z.string(),
  kind: questionKindSchema,
  text: z.string(),
  options: z.array(z.object({ id: z.string(), text: z.string() })),
});
export type PresentedQuestion = z.infer<typeof presentedQuestionSchema>;

export const answerSchema = z.object({
  questionId: z.string().min(1).max(64),
  optionIds: z.array(z.string().min(1).max(64)).max(MAX_OPTIONS),
});
export type Answer = z.infer<typeof answerSchema>;
export const answersBodySchema = z.object({ answers: z.array(answerSchema).max(200) });
export type AnswersBody = z.infer<typeof answersBodySchema>;

export const reviewSchema = z.object({
  questions: z.array(presentedQuestionSchema),
  answered: z.boolean(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewResultSchema = z.object({
  results: z.array(
    z.object({ questionId: z.string(), correct: z.boolean(), feedback: z.string().nullable() }),
  ),
});
export type ReviewResult = z.infer<typeof reviewResultSchema>;

export const attemptSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  startedAt: z.string(),
  /** Null when the exam has no time limit. */
  deadline: z.string().nullable(),
  questions: z.array(presentedQuestionSchema),
  answers: z.array(answerSchema),
});
export type Attempt = z.infer<typeof attemptSchema>;

export const attemptSummarySchema = z.object({
  id: z.string(),
  number: z.number().int(),
  startedAt: z.string(),
  submittedAt: z.string().nullable(),
  score: z.number().int().nullable(),
  passed: z.boolean().nullable(),
});
export type AttemptSummary = z.infer<typeof attemptSummarySchema>;

/** Where a learner stands with a course's final exam. */
export const examStatusSchema = z.object({
  enabled: z.boolean(),
  passMark: z.number().int(),
  questionCount: z.number().int(),
  timeLimitMinutes: z.number().int().nullable(),
  maxAttempts: z.number().int().nullable(),
  attemptsUsed: z.number().int(),
  /** Null when attempts are unlimited. */
  attemptsLeft: z.number().int().nullable(),
  canStart: z.boolean(),
  /** Why the exam cannot be started now, when it cannot. */
  blockedReason: z.string().nullable(),
  passed: z.boolean(),
  bestScore: z.number().int().nullable(),
  current: attemptSchema.nullable(),
  attempts: z.array(attemptSummarySchema),
});
export type ExamStatus = z.infer<typeof examStatusSchema>;

/** One graded question as the result page shows it, when the reveal setting allows. */
export const reviewedQuestionSchema = z.object({
  questionId: z.string(),
  text: z.string(),
  kind: questionKindSchema,
  correct: z.boolean(),
  chosenOptionIds: z.array(z.string()),
  options: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      correct: z.boolean(),
      feedback: z.string().nullable(),
    }),
  ),
  explanation: z.string().nullable(),
});
export type ReviewedQuestion = z.infer<typeof reviewedQuestionSchema>;

export const submitResultSchema = z.object({
  score: z.number().int().min(0).max(100),
  passed: z.boolean(),
  passMark: z.number().int(),
  attemptsLeft: z.number().int().nullable(),
  review: z.array(reviewedQuestionSchema).nullable(),
});
export type SubmitResult = z.infer<typeof submitResultSchema>;

/** A submitted attempt's result page, read again later (`GET /api/exam-attempts/{id}`). */
export const attemptResultSchema = submitResultSchema.extend({
  id: z.string(),
  number: z.number().int(),
  startedAt: z.string(),
  submittedAt: z.string(),
  courseId: z.string().nullable(),
});
export type AttemptResult = z.infer<typeof attemptResultSchema>;

export const examResultsSchema = z.object({
  courseId: z.string(),
  summary: z.object({
    learners: z.number().int(),
    attempts: z.number().int(),
    passed: z.number().int(),
    /** Whole percent of learners with an attempt who passed; null before any attempt. */
    passRate: z.number().int().nullable(),
    averageScore: z.number().nullable(),
    averageAttemptsToPass: z.number().nullable(),
  }),
  learners: z.array(
    z.object({
      enrollmentId: z.string().nullable(),
      userId: z.string().nullable(),
      name: z.string(),
      email: z.string(),
      passed: z.boolean(),
      bestScore: z.number().int().nullable(),
      attemptsLeft: z.number().int().nullable(),
      extraAttempts: z.number().int(),
      attempts: z.array(
        z.object({
          id: z.string(),
          number: z.number().int(),
          startedAt: z.string(),
          submittedAt: z.string().nullable(),
          durationSeconds: z.number().int().nullable(),
          score: z.number().int().nullable(),
          passed: z.boolean().nullable(),
        }),
      ),
    }),
  ),
  questions: z.array(
    z.object({
      questionId: z.string(),
      text: z.string(),
      /** Graded attempts that drew this question. */
      presented: z.number().int(),
      answeredCorrectly: z.number().int(),
      /** Whole percent; null when never drawn. */
      percentCorrect: z.number().int().nullable(),
    }),
  ),
});
export type ExamResults = z.infer<typeof examResultsSchema>;
export const EXAM_RESULTS_VIEWS = ["attempts", "questions", "summary"] as const;
export const examResultsQuerySchema = z.object({
  format: z.enum(["json", "csv"]).default("json"),
  view: z.enum(EXAM_RESULTS_VIEWS).default("attempts"),
});

/** What the player, the exam page and the server say about assessments. */
export const ASSESSMENT_MESSAGES = {
  reviewFirst: "Answer this module's review questions before marking it complete.",
  examNotOpen: "Complete every module before starting the final exam.",
  examDisabled: "This course has no final exam.",
  noAttemptsLeft: "You have used every attempt at this exam. Ask your administrator for another.",
  alreadySubmitted: "This attempt has already been submitted.",
  alreadyPassed: "You have already passed this exam.",
  timeUp: "The time for this attempt is up; it was graded as saved at the deadline.",
  notYourAttempt: "This attempt belongs to another learner.",
  notPresented: "An answer names a question or option that was not presented.",
  answeredTwice: "Each question takes one answer: an answer names a question already answered.",
  reviewChoiceRequired: "Choose an answer for every review question.",
  oneOptionOnly: "Choose one option for a single-choice or true/false question.",
  notEnoughQuestions: (pool: number, drawn: number) =>
    `The exam draws ${drawn} questions but the final pool has only ${pool}.`,
} as const;
