import { randomBytes } from "node:crypto";
import type { EvaluationFormBody, EvaluationItem } from "../../contract";

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
