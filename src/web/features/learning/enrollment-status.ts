import {
  DASHBOARD_RECENT_ITEMS,
  type Enrollment,
  isModuleUnlocked,
  levelFor,
  type Module,
} from "@contract";

/** SPEC section 4: progress 0 not started; above 0 and not complete in progress; isCompleted completed. */
export type EnrollmentStatus = "not-started" | "in-progress" | "completed";

export function enrollmentStatus(
  enrollment: Pick<Enrollment, "progress" | "isCompleted">,
): EnrollmentStatus {
  if (enrollment.isCompleted) return "completed";
  return enrollment.progress > 0 ? "in-progress" : "not-started";
}

/** The shown percent: a completed course reads 100 even if a module was added later. */
export function displayProgress(enrollment: Pick<Enrollment, "progress" | "isCompleted">): number {
  return enrollment.isCompleted ? 100 : Math.max(0, Math.min(100, enrollment.progress));
}

export type LearningSummary<T> = {
  total: number;
  completed: T[];
  inProgress: T[];
  /** Average progress over every enrollment, rounded to a whole percent. */
  averageProgress: number;
  /** SPEC section 9: floor(average / 20) + 1. */
  level: number;
  /** The average a learner needs for the next level, or null at the top level. */
  nextLevelAt: number | null;
  /** SPEC section 2: the first 3 enrollments. */
  recent: T[];
};

export function summarizeLearning<T extends Pick<Enrollment, "progress" | "isCompleted">>(
  enrollments: readonly T[],
): LearningSummary<T> {
  const total = enrollments.length;
  const sum = enrollments.reduce((acc, e) => acc + displayProgress(e), 0);
  const averageProgress = total ? Math.round(sum / total) : 0;
  const level = levelFor(averageProgress);
  const nextLevelAt = level * 20 <= 100 ? level * 20 : null;
  return {
    total,
    completed: enrollments.filter((e) => enrollmentStatus(e) === "completed"),
    inProgress: enrollments.filter((e) => enrollmentStatus(e) === "in-progress"),
    averageProgress,
    level,
    nextLevelAt,
    recent: enrollments.slice(0, DASHBOARD_RECENT_ITEMS),
  };
}

export type ModuleState = "completed" | "available" | "locked";

/** Each module's state in course order (SPEC section 4, module access). */
export function moduleStates(
  modules: readonly Pick<Module, "id">[],
  completedModules: readonly string[],
): Map<string, ModuleState> {
  const ids = modules.map((m) => m.id);
  return new Map(
    ids.map((id) => [
      id,
      completedModules.includes(id)
        ? "completed"
        : isModuleUnlocked(ids, id, completedModules)
          ? "available"
          : "locked",
    ]),
  );
}

/**
 * Where the player opens: the first module not yet completed (so "Continue" resumes),
 * or the first module of a finished course.
 */
export function resumeModuleId(
  modules: readonly Pick<Module, "id">[],
  completedModules: readonly string[],
): string | undefined {
  return (modules.find((m) => !completedModules.includes(m.id)) ?? modules[0])?.id;
}
