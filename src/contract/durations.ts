/** "45 s", "2 min", "1 min 30 s": a short duration for progress lines and messages. */
export function formatWatchSeconds(value: number): string {
  const total = Math.max(0, Math.ceil(value));
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}
