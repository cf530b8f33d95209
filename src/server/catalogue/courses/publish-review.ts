import {
  type Course,
  type CoursePublishCheck,
  creditAmountText,
  lengthMismatch,
  PUBLISH_MESSAGES,
} from "../../../contract";

/**
 * Whether credit could be earned without watching: the course offers credit while its
 * modules are completed manually ('Mark as Complete' at any time).
 */
const manualCompletionWithCredit = (
  course: Pick<Course, "completionPolicy" | "creditTypes">,
): boolean => course.completionPolicy === "manual" && course.creditTypes.length > 0;

/**
 * What the administrator should know before publishing: a credit course completed manually
 * (publishing it asks for a confirmation), credit beyond what the content's length supports
 * (publishing asks for a reason), and each module whose stated length differs from its
 * video's real length by more than 10 % (a warning).
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
  checks.push(...creditLengthChecks(course));
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

/** The seconds of content a course's modules hold: each video's real length, else its stated one. */
const contentSeconds = (course: Pick<Course, "modules">) =>
  course.modules.reduce((sum, m) => sum + (m.videoSeconds ?? m.duration * 60), 0);

/**
 * Each credit type whose amount is more than the content's length supports at its body's
 * hour (60 minutes; NASBA's CPE credit is 50): publishing asks for a reason.
 */
function creditLengthChecks(course: Pick<Course, "modules" | "creditTypes">) {
  const seconds = contentSeconds(course);
  return course.creditTypes.flatMap((t): CoursePublishCheck[] => {
    const supported = Math.floor((seconds / 60 / t.minutesPerHour) * 100) / 100;
    if (t.amount <= supported) return [];
    const hour = t.accreditingBody
      ? `${t.accreditingBody}'s ${t.minutesPerHour}-minute hour`
      : `a ${t.minutesPerHour}-minute hour`;
    return [
      {
        key: "credit-length",
        severity: "confirm",
        message: PUBLISH_MESSAGES.creditLength(
          creditAmountText(t.amount, t.name, t.singularName),
          seconds,
          creditAmountText(supported, t.name, t.singularName),
          hour,
        ),
        moduleId: null,
      },
    ];
  });
}
