import { randomBytes } from "node:crypto";
import {
  DEFAULT_EVALUATION_ITEMS,
  type EvaluationAnswersBody,
  type EvaluationFormBody,
  type EvaluationItem,
} from "../../../contract";
import { badAnswers } from "./evaluations.errors";
import type { EvaluationSettings } from "./evaluations.read-model";

/** The course's evaluation form: its own items, or the template every course starts from. */
export const evaluationItemsOf = (settings: EvaluationSettings): EvaluationItem[] =>
  settings?.evaluationItems ?? DEFAULT_EVALUATION_ITEMS;

/** New items get an id; the ids of kept items stay, so answers stay with their item. */
export function withIds(items: EvaluationFormBody["items"]): EvaluationItem[] {
  const used = new Set(items.flatMap((i) => (i.id ? [i.id] : [])));
  return items.map((item) => {
    let id = item.id;
    while (!id || (used.has(id) && !item.id)) id = `item-${randomBytes(4).toString("hex")}`;
    used.add(id);
    return { id, kind: item.kind, text: item.text, required: item.required };
  });
}

/** Every answer names an item of the form once, has the item's kind, and nothing required is left out. */
export function checkAnswers(items: EvaluationItem[], answers: EvaluationAnswersBody["answers"]) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const seen = new Set<string>();
  const kept: { itemId: string; value: number | string }[] = [];
  for (const answer of answers) {
    const item = byId.get(answer.itemId);
    if (!item)
      throw badAnswers(
        "The evaluation has changed since this page was opened: reload it and answer again.",
      );
    if (seen.has(item.id)) throw badAnswers(`"${item.text}" is answered twice.`);
    seen.add(item.id);
    if (item.kind === "likert" && typeof answer.value !== "number") {
      throw badAnswers(`Rate "${item.text}" from 1 to 5.`);
    }
    if (item.kind === "text" && typeof answer.value !== "string") {
      throw badAnswers(`Answer "${item.text}" in words.`);
    }
    const value = typeof answer.value === "string" ? answer.value.trim() : answer.value;
    if (value !== "") kept.push({ itemId: item.id, value });
  }
  const missing = items.find((i) => i.required && !kept.some((a) => a.itemId === i.id));
  if (missing) throw badAnswers(`Answer "${missing.text}": it is required.`);
  return kept;
}
