import {
  type Course,
  type CoursePublishCheck,
  lengthMismatch,
  PUBLISH_MESSAGES,
} from "../../../contract";

/**
 * Whether credit could be earned without watching: the course offers credit while its
 * modules are completed manually ('Mark as Complete' at any time).
 */
export const manualCompletionWithCredit = (
  course: Pick<Course, "completionPolicy" | "creditTypes">,
): boolean => course.completionPolicy === "manual" && course.creditTypes.length > 0;

/**
 * What the administrator should know before publishing: a credit course completed manually
 * (publishing it asks for a confirmation), and each module whose stated length differs from
 * its video's real length by more than 10 % (a warning).
 */
export function coursePublishChecks(course: Course): CoursePublishCheck[] {
  const checks: CoursePublishCheck[] = [];
  if (manualCompletionWithCredit(course)) {
    checks.push({
      key: "manual-completion",
      severity: "confirm",
      message: PUBLISH_MESSAGES.manualCompletion,
      moduleId: null,
    });
  }
  for (const [i, module] of course.modules.entries()) {
    if (module.videoSeconds === null || !lengthMismatch(module.duration, module.videoSeconds)) {
      continue;
    }
    checks.push({
      key: "module-length",
      severity: "warning",
      message: PUBLISH_MESSAGES.moduleLength(
        i + 1,
        module.title,
        module.duration,
        module.videoSeconds,
      ),
      moduleId: module.id,
    });
  }
  return checks;
}
