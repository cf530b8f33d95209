import { z } from "zod";
import {
  type CompletionStepKey,
  type EvaluationItem,
  evaluationAnswersBodySchema,
  evaluationFormBodySchema,
  evaluationItemSchema,
} from "./credit";

/** What a form step declares: the words of its page and the form every course starts from. */
export interface FormStepDeclaration {
  /** Under the page's title: what the learner is asked and why. */
  intro: string;
  /** The next-step link that leads to the page. */
  action: string;
  /** The submit button. */
  submit: string;
  /** Shown once the answers are recorded. */
  thanks: string;
  /** The administrator's dialog: what the provider does with the answers. */
  adminHint: string;
  defaultItems: EvaluationItem[];
}

/**
 * Completion steps whose record is the learner's answers to a form the course's
 * administrator writes, with the evaluation's kinds of item (a rating, a text). A step
 * declared here, with its place, label and event in `COMPLETION_STEPS`, gets its storage,
 * routes, unit of work and screens from the form-steps feature: nothing else is written.
 * Unlike the evaluation's, its answers are kept with the learner, since the provider
 * follows them up.
 */
export const FORM_STEPS = {
  // Outcomes measurement (Moore's level 4): the provider asks later how the change went.
  commitment: {
    intro:
      "Name one change you will make in your practice after this activity. Your provider may ask you later how it went.",
    action: "Commit to a change",
    submit: "Submit commitment",
    thanks: "Your commitment to change is recorded.",
    adminHint:
      "Learners answer these after the evaluation. Answers are kept with each learner's name, so you can follow up on their commitments.",
    defaultItems: [
      {
        id: "change",
        kind: "text",
        text: "What will you change in your practice as a result of this activity?",
        required: true,
      },
      {
        id: "confidence",
        kind: "likert",
        text: "I am confident I can make this change.",
        required: true,
      },
    ],
  },
} as const satisfies Partial<Record<CompletionStepKey, FormStepDeclaration>>;

export type FormStepKey = keyof typeof FORM_STEPS;
export const FORM_STEP_KEYS = Object.keys(FORM_STEPS) as [FormStepKey, ...FormStepKey[]];
export const formStepKeySchema = z.enum(FORM_STEP_KEYS);

/** A course's form step: its form, and for a learner their answers once given. */
export const formStepSchema = z.object({
  key: formStepKeySchema,
  required: z.boolean(),
  items: z.array(evaluationItemSchema),
  answers: z
    .array(z.object({ itemId: z.string(), value: z.union([z.number(), z.string()]) }))
    .nullable(),
  answeredAt: z.string().nullable(),
});
export type FormStep = z.infer<typeof formStepSchema>;

/** The administrator's settings of a form step: whether the course asks for it, and its form. */
export const formStepSettingsBodySchema = z.strictObject({
  required: z.boolean(),
  items: evaluationFormBodySchema.shape.items,
});
export type FormStepSettingsBody = z.infer<typeof formStepSettingsBodySchema>;

export const formStepAnswersBodySchema = evaluationAnswersBodySchema;
export type FormStepAnswersBody = z.infer<typeof formStepAnswersBodySchema>;

/** Every learner's answers to a course's form step, for the provider's follow-up. */
export const formStepAnswersListSchema = z.object({
  key: formStepKeySchema,
  items: z.array(evaluationItemSchema),
  answers: z.array(
    z.object({
      learnerName: z.string(),
      learnerEmail: z.string(),
      answeredAt: z.string(),
      answers: formStepSchema.shape.answers.unwrap(),
    }),
  ),
});
export type FormStepAnswersList = z.infer<typeof formStepAnswersListSchema>;
export const formStepAnswersQuerySchema = z.object({
  format: z.enum(["json", "csv"]).default("json"),
});

/**
 * Checks a learner's answers against the form (`form` names it in the messages: "the
 * evaluation"): every answer names an item once and has the item's kind, and nothing required
 * is left out. Answers the kept values, or what is wrong in words a learner can act on.
 */
export function checkFormAnswers(
  items: EvaluationItem[],
  answers: FormStepAnswersBody["answers"],
  form: string,
): { kept: { itemId: string; value: number | string }[] } | { problem: string } {
  const byId = new Map(items.map((i) => [i.id, i]));
  const seen = new Set<string>();
  const kept: { itemId: string; value: number | string }[] = [];
  for (const answer of answers) {
    const item = byId.get(answer.itemId);
    if (!item) {
      return {
        problem: `${form[0]?.toUpperCase()}${form.slice(1)} has changed since this page was opened: reload it and answer again.`,
      };
    }
    if (seen.has(item.id)) return { problem: `"${item.text}" is answered twice.` };
    seen.add(item.id);
    if (item.kind === "likert" && typeof answer.value !== "number") {
      return { problem: `Rate "${item.text}" from 1 to 5.` };
    }
    if (item.kind === "text" && typeof answer.value !== "string") {
      return { problem: `Answer "${item.text}" in words.` };
    }
    const value = typeof answer.value === "string" ? answer.value.trim() : answer.value;
    if (value !== "") kept.push({ itemId: item.id, value });
  }
  const missing = items.find((i) => i.required && !kept.some((a) => a.itemId === i.id));
  if (missing) return { problem: `Answer "${missing.text}": it is required.` };
  return { kept };
}
