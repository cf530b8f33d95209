import { canonicalLanguageTag } from "@contract";

/**
 * A language's name in that language ("Français", "Português (Brasil)"), as language menus
 * show them so every learner recognises their own; undefined for a tag the browser does not know.
 */
export function languageName(tag: string): string | undefined {
  const trimmed = tag.trim();
  if (!trimmed) return undefined;
  try {
    const canonical = canonicalLanguageTag(trimmed);
    const name = new Intl.DisplayNames([canonical], { type: "language" }).of(canonical);
    if (!name || name.toLowerCase() === canonical.toLowerCase()) return undefined;
    return name.charAt(0).toLocaleUpperCase(canonical) + name.slice(1);
  } catch {
    // Not a tag Intl accepts: the administrator types the label.
    return undefined;
  }
}
