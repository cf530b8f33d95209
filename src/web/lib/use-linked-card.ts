import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * A profile card that other screens link to (`/profile#anchor`, "Add your licence"):
 * arriving by that link brings the card into view and starts at its first field, once its
 * data has loaded. Returns the ref for the card.
 */
export function useLinkedCard(anchor: string, loaded: boolean) {
  const cardRef = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  const linkedHere = hash === `#${anchor}`;
  useEffect(() => {
    if (!linkedHere || !loaded) return;
    cardRef.current?.scrollIntoView({ block: "start" });
    cardRef.current?.querySelector<HTMLInputElement>("input")?.focus({ preventScroll: true });
  }, [linkedHere, loaded]);
  return cardRef;
}
