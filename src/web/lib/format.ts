/** "1 module", "3 modules". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "A", "A and B", "A, B and C". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The text with its first letter in capitals, as a sentence starts. */
export const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Ends a sentence once: "Welcome, Ada" gets its full stop, "Welcome, Dr." keeps its own. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Courtesy titles that open a name but are not what a greeting calls someone. */
const COURTESY_TITLE = /^(dr|mr|mrs|ms|mx|miss|prof|professor|rev|sir|dame)\.?$/i;

/**
 * What a greeting calls someone: the first word of their name that is not a courtesy title
 * ("Dr. Jane Smith" is "Jane"), or the whole name when it is nothing else.
 */
export function greetingName(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  return words.find((word) => !COURTESY_TITLE.test(word)) ?? fullName.trim();
}

/** Up to two initials for an avatar. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.[0]?.toUpperCase() ?? "").join("") || "?";
}
