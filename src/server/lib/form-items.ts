import { randomBytes } from "node:crypto";
import type { EvaluationFormBody, EvaluationItem } from "../../contract";

/**
 * New items get an id; the ids of kept items stay, so answers stay with their item. An item
 * sent back with another kind than `saved` gives it is another question: it gets a new id, so
 * the ratings or comments given to it before stay with the item they answered.
 */
export function withIds(
  items: EvaluationFormBody["items"],
  saved: EvaluationItem[] = [],
): EvaluationItem[] {
  const kinds = new Map(saved.map((i) => [i.id, i.kind]));
  const kept = (item: EvaluationFormBody["items"][number]) =>
    item.id && (kinds.get(item.id) ?? item.kind) === item.kind ? item.id : undefined;
  const used = new Set([...kinds.keys(), ...items.flatMap((i) => (i.id ? [i.id] : []))]);
  return items.map((item) => {
    let id = kept(item);
    while (!id || (used.has(id) && !kept(item))) id = `item-${randomBytes(4).toString("hex")}`;
    used.add(id);
    return { id, kind: item.kind, text: item.text, required: item.required };
  });
}
