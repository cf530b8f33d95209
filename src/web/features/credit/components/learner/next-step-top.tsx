import { COMPLETION_STEP_LABELS, type Completion } from "@contract";
import { ArrowRightIcon, FlagIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { useCourseCompletion } from "../../api/get-course-completion";
import { hasExtraSteps, nextStepLink } from "../../credit-steps";
import { CertificateStep } from "./completion-checklist";

/**
 * The learner's next step at the top of the player, named and linked: once the modules are
 * done the exam, the evaluation or the attestation waits on a screen of its own, and the
 * learner must not have to scroll past the video to find the way there. A certificate held
 * back (a licence to enter) says why. Renders nothing while the modules are the next step.
 */
export function NextStepTop({ courseId }: { courseId: string }) {
  const { data } = useCourseCompletion(courseId);
  if (!data || data.isCompleted || !hasExtraSteps(data)) return null;
  if (data.next === "certificate") {
    return (
      <section
        aria-labelledby="next-step-top-title"
        data-testid="next-step-top"
        className="grid gap-3 rounded-2xl border border-indigo-200 bg-indigo-50/70 p-4 sm:p-5"
      >
        <NextStepHeading completion={data} />
        <CertificateStep courseId={courseId} />
      </section>
    );
  }
  const link = nextStepLink(data);
  if (!link) return null;
  return (
    <section
      aria-labelledby="next-step-top-title"
      data-testid="next-step-top"
      className="flex flex-col gap-3 rounded-2xl border border-indigo-200 bg-indigo-50/70 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <NextStepHeading completion={data} />
      <Button asChild className="w-full sm:w-auto">
        <Link to={link.path}>
          {link.label}
          <ArrowRightIcon aria-hidden="true" />
        </Link>
      </Button>
    </section>
  );
}

function NextStepHeading({ completion }: { completion: Completion }) {
  const next = completion.next ?? "certificate";
  return (
    <div className="flex items-center gap-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-600 text-white">
        <FlagIcon className="size-4" aria-hidden="true" />
      </span>
      <div className="grid gap-0.5">
        <p className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">
          Your next step
        </p>
        <h2
          id="next-step-top-title"
          className="text-base leading-tight font-semibold text-zinc-950"
        >
          {COMPLETION_STEP_LABELS[next]}
        </h2>
      </div>
    </div>
  );
}

/**
 * The top of the learner dashboard: each unfinished course whose next step waits on a screen
 * of its own (the exam, the evaluation, the attestation), linked. Renders nothing when no
 * course has one. The course cards ask the same questions, so this asks the server nothing
 * more.
 */
export function NextStepsPanel({
  courses,
}: {
  courses: { courseId: string; courseTitle: string }[];
}) {
  return (
    <section
      aria-labelledby="next-steps-title"
      data-testid="next-steps"
      className="hidden gap-3 rounded-2xl border border-indigo-200 bg-indigo-50/70 p-4 has-[li]:grid sm:p-5"
    >
      <h2 id="next-steps-title" className="text-base font-semibold text-zinc-950">
        Your next steps
      </h2>
      <ul className="grid gap-2">
        {courses.map((c) => (
          <NextStepRow key={c.courseId} {...c} />
        ))}
      </ul>
    </section>
  );
}

function NextStepRow({ courseId, courseTitle }: { courseId: string; courseTitle: string }) {
  const { data } = useCourseCompletion(courseId);
  const link = data ? nextStepLink(data) : null;
  if (!link) return null;
  return (
    <li className="flex flex-col gap-2 rounded-xl bg-white p-3 ring-1 ring-indigo-100 sm:flex-row sm:items-center sm:justify-between">
      <span className="grid min-w-0 gap-0.5">
        <span className="text-sm font-medium break-words text-zinc-900">{courseTitle}</span>
        <span className="text-xs text-zinc-600">Next: {COMPLETION_STEP_LABELS[link.key]}</span>
      </span>
      <Button asChild size="sm" className="w-full shrink-0 sm:w-auto">
        <Link to={link.path}>
          {link.label}
          <span className="sr-only"> in {courseTitle}</span>
          <ArrowRightIcon aria-hidden="true" />
        </Link>
      </Button>
    </li>
  );
}
