import type { Activity, Completion, CompletionStepKey } from "@contract";

const enc = encodeURIComponent;

/** Where each screen of a course lives, for links between the learner's steps. */
export const coursePaths = {
  player: (courseId: string) => `/course/${enc(courseId)}`,
  about: (courseId: string) => `/courses/${enc(courseId)}/about`,
  exam: (courseId: string) => `/courses/${enc(courseId)}/exam`,
  evaluation: (courseId: string) => `/courses/${enc(courseId)}/evaluation`,
  attestation: (courseId: string) => `/courses/${enc(courseId)}/attestation`,
};

export type CompletionStep = Completion["steps"][number];

/** The steps the course asks of the learner, in the fixed order. */
export const requiredSteps = (completion: Completion): CompletionStep[] =>
  completion.steps.filter((s) => s.required);

/**
 * Whether the course asks for more than its modules (every course ends with its
 * certificate): a plain course keeps the screens it always had, without a checklist.
 */
export const hasExtraSteps = (completion: Completion): boolean =>
  completion.steps.some((s) => s.required && s.key !== "modules" && s.key !== "certificate");

/** Whether `key` is still waiting for an earlier required step, and which one. */
export function blockingStep(
  completion: Completion,
  key: CompletionStepKey,
): CompletionStep | undefined {
  const index = completion.steps.findIndex((s) => s.key === key);
  return completion.steps.slice(0, Math.max(index, 0)).find((s) => s.required && !s.done);
}

/** Whether the page has anything to read: a course without it keeps the player as it was. */
export const hasActivityContent = (a: Activity): boolean =>
  a.objectives.length > 0 ||
  a.faculty.length > 0 ||
  a.disclosureStatement !== "" ||
  a.accreditationStatement !== "";

/** Whether the learner may still work toward credit: the activity and the enrollment are valid. */
export const creditOpen = (a: Activity): boolean =>
  !a.courseExpired && !(a.standing?.enrollmentExpired ?? false);

/** The learner has yet to acknowledge a page the course requires them to read first. */
export const mustAcknowledge = (a: Activity): boolean =>
  a.acknowledgementRequired && a.standing !== null && a.standing.acknowledgedAt === null;

const calendarDay = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/**
 * "March 1, 2027" for a whole day (`YYYY-MM-DD`) as the administrator set it, in UTC so
 * the viewer's time zone never moves it to the day before; an em dash when unset.
 */
export function formatDay(day: string | null): string {
  if (!day) return "—";
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? "—" : calendarDay.format(date);
}

/** "1 credit", "2.5 credits", with the course's credit type when it has one. */
export function creditsText(credits: number, creditType?: string | null): string {
  const unit = credits === 1 ? "credit" : "credits";
  return creditType ? `${credits} ${creditType} ${unit}` : `${credits} ${unit}`;
}
