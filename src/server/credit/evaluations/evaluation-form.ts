import {
  checkFormAnswers,
  DEFAULT_EVALUATION_ITEMS,
  type EvaluationAnswersBody,
  type EvaluationItem,
} from "../../../contract";
import { badAnswers } from "./evaluations.errors";
import type { EvaluationSettings } from "./evaluations.read-model";

/** The course's evaluation form: its own items, or the template every course starts from. */
export const evaluationItemsOf = (settings: EvaluationSettings): EvaluationItem[] =>
  settings?.evaluationItems ?? DEFAULT_EVALUATION_ITEMS;

/** Every answer names an item of the form once, has the item's kind, and nothing required is left out. */
export function checkAnswers(items: EvaluationItem[], answers: EvaluationAnswersBody["answers"]) {
  const checked = checkFormAnswers(items, answers, "the evaluation");
  if ("problem" in checked) throw badAnswers(checked.problem);
  return checked.kept;
}
