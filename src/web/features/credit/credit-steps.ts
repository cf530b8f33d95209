import {
  type Activity,
  type Completion,
  type CompletionStepKey,
  FORM_STEP_KEYS,
  FORM_STEPS,
  type FormStepKey,
} from "@contract";

const enc = encodeURIComponent;

/** Where each screen of a course lives, for links between the learner's steps. */
export const coursePaths = {
  player: (courseId: string) => `/course/${enc(courseId)}`,
  about: (courseId: string) => `/courses/${enc(courseId)}/about`,
  exam: (courseId: string) => `/courses/${enc(courseId)}/exam`,
  evaluation: (courseId: string) => `/courses/${enc(courseId)}/evaluation`,
  attestation: (courseId: string) => `/courses/${enc(courseId)}/attestation`,
  /** Every form step of the contract has its page here (the commitment to change…). */
  formStep: (courseId: string, step: FormStepKey) => `/courses/${enc(courseId)}/steps/${step}`,
};

/** Each form step's way to its page, under the words its declaration gives. */
export const FORM_STEP_ACTIONS = Object.fromEntries(
  FORM_STEP_KEYS.map((step) => [
    step,
    {
      label: FORM_STEPS[step].action,
      to: (courseId: string) => coursePaths.formStep(courseId, step),
    },
  ]),
) as Record<FormStepKey, { label: string; to: (courseId: string) => string }>;

export type CompletionStep = Completion["steps"][number];

/** The steps the course asks of the learner, in the fixed order. */
const requiredSteps = (completion: Completion): CompletionStep[] =>
  completion.steps.filter((s) => s.required);

/**
 * Whether the course asks for more than its modules (every course ends with its
 * certificate): a plain course keeps the screens it always had, without a checklist.
 */
export const hasExtraSteps = (completion: Completion): boolean =>
  completion.steps.some((s) => s.required && s.key !== "modules" && s.key !== "certificate");

/**
 * The checklist's rows: the required steps in the fixed order, except that review questions
 * come before the modules, since each module waits for its own questions.
 */
export function checklistSteps(completion: Completion): CompletionStep[] {
  const steps = requiredSteps(completion);
  const review = steps.find((s) => s.key === "review");
  const modules = steps.findIndex((s) => s.key === "modules");
  if (!review || modules < 0) return steps;
  const rest = steps.filter((s) => s !== review);
  rest.splice(modules, 0, review);
  return rest;
}

/**
 * The row marked as the learner's next step. Modules and their review questions are done
 * together, one module at a time, so while either is the next step the first of the two
 * rows not yet done is marked.
 */
export function checklistNextKey(completion: Completion): CompletionStepKey | null {
  const next = completion.isCompleted ? null : completion.next;
  if (next !== "modules" && next !== "review") return next;
  return (
    checklistSteps(completion).find((s) => (s.key === "modules" || s.key === "review") && !s.done)
      ?.key ?? next
  );
}

/** The learner's next step when it has a screen of its own, as the top of a page leads to it. */
export type NextStepLink = { key: CompletionStepKey; label: string; path: string };

const NEXT_STEP_LINKS: Partial<
  Record<CompletionStepKey, { label: string; to: (courseId: string) => string }>
> = {
  exam: { label: "Take the final exam", to: coursePaths.exam },
  evaluation: { label: "Complete the evaluation", to: coursePaths.evaluation },
  ...FORM_STEP_ACTIONS,
  attestation: { label: "Attest and claim credit", to: coursePaths.attestation },
};

/**
 * Where the learner goes next when it is not the player itself: the final exam, the
 * evaluation or the attestation. Null while the modules (or what comes before them) are the
 * next step, once the course is complete, and for a course that asks only for its modules.
 */
export function nextStepLink(completion: Completion): NextStepLink | null {
  if (completion.isCompleted || completion.next === null) return null;
  const link = NEXT_STEP_LINKS[completion.next];
  if (!link) return null;
  return { key: completion.next, label: link.label, path: link.to(completion.courseId) };
}

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
  a.creditTypes.some((t) => t.accreditationStatement !== "" || t.designationStatement !== "");

/**
 * Whether the learner's certificate waits for their licence: a type they claimed asks for
 * it, or, before they claim (or on a course without an attestation), any type offered does.
 */
export function licenceNeeded(a: Activity): boolean {
  const claimed = a.standing?.attestation?.credits;
  const ids = claimed ? new Set(claimed.map((c) => c.creditTypeId)) : null;
  return a.creditTypes.some((t) => t.licenceRequired && (!ids || ids.has(t.id)));
}

/** Whether the learner may still work toward credit: the activity and the enrollment are valid. */
export const creditOpen = (a: Activity): boolean =>
  !a.courseExpired && !(a.standing?.enrollmentExpired ?? false);

/** The learner has yet to acknowledge a page the course requires them to read first. */
export const mustAcknowledge = (a: Activity): boolean =>
  a.acknowledgementRequired && a.standing !== null && a.standing.acknowledgedAt === null;
