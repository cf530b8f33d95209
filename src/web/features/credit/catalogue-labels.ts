import type { CatalogueType, CreditCatalogue } from "@contract";

/** Where the organisation's credit catalogue is kept, in Settings; course screens link here. */
export const CREDIT_CATALOGUE_PATH = "/admin/settings/credit-catalogue";

/** "contact hours — ANCC": a catalogue type as lists and selects name it, with its body. */
export function catalogueTypeLabel(
  type: Pick<CatalogueType, "name" | "bodyId">,
  bodies: CreditCatalogue["bodies"],
): string {
  const body = bodies.find((b) => b.id === type.bodyId);
  return `${type.name} — ${body?.name ?? "no accrediting body"}`;
}

/** What the catalogue screens say when something is saved. */
export const CATALOGUE_TOASTS = {
  bodyAdded: "Accrediting body added",
  bodySaved: "Accrediting body saved",
  bodyRemoved: "Accrediting body removed",
  typeAdded: "Credit type added",
  typeSaved: "Credit type saved",
  typeRemoved: "Credit type removed",
  typeConfirmed: "Credit type confirmed",
  typeMerged: "Credit types merged",
} as const;
