/** SPEC section 4: progress after completing a module. */
export function progressAfterCompleting(completedBefore: number, totalModules: number): number {
  if (totalModules <= 0) return 0;
  return Math.min(100, Math.round(((completedBefore + 1) / totalModules) * 100));
}

/** Progress for a number of completed modules out of a total (used when modules change). */
export function progressFor(completed: number, totalModules: number): number {
  if (totalModules <= 0) return 0;
  return Math.min(100, Math.round((completed / totalModules) * 100));
}

/** SPEC section 9: Level = floor(average progress / 20) + 1. */
export function levelFor(averageProgress: number): number {
  return Math.floor(averageProgress / 20) + 1;
}

/** SPEC section 4, module access: the first module is open; a later one once the previous is complete. */
export function isModuleUnlocked(
  moduleIds: readonly string[],
  moduleId: string,
  completed: readonly string[],
): boolean {
  const index = moduleIds.indexOf(moduleId);
  if (index < 0) return false;
  if (index === 0) return true;
  return completed.includes(moduleIds[index - 1] as string);
}
