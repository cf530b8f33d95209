import type { EnrollmentWithRelations } from "@contract";
import { TrophyIcon } from "lucide-react";
import type { ComponentType, Ref } from "react";
import { useDates } from "../../../lib/dates";
import type { CertificateButtonProps } from "./course-player-extensions";

/**
 * The celebration once the course is complete, with the certificate to download. The
 * player moves focus here when the learner's last step completes the course.
 */
export function CourseCompleteBanner({
  enrollment,
  CertificateButton,
  ref,
}: {
  enrollment: EnrollmentWithRelations;
  CertificateButton: ComponentType<CertificateButtonProps>;
  ref: Ref<HTMLElement>;
}) {
  const dates = useDates();
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="course-complete-title"
      data-testid="course-complete"
      className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-700 p-5 text-white shadow-lg shadow-indigo-950/10 outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:ring-offset-2 sm:p-6"
    >
      <span
        aria-hidden="true"
        className="absolute -top-16 -right-10 size-48 rounded-full bg-white/10"
      />
      <span
        aria-hidden="true"
        className="absolute -bottom-20 right-24 size-40 rounded-full bg-violet-400/20"
      />
      <div className="relative flex flex-col gap-4 sm:flex-row sm:items-center sm:gap-5">
        <span className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-white/15 ring-1 ring-white/25">
          <TrophyIcon className="size-7 text-amber-300" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1">
          <h2 id="course-complete-title" className="text-lg font-semibold">
            Course complete. Congratulations!
          </h2>
          <p className="text-sm leading-relaxed text-indigo-100">
            You finished every module on {dates.date(enrollment.completedAt)}. Your certificate is
            ready to download and print.
          </p>
        </div>
        <CertificateButton
          enrollment={enrollment}
          variant="outline"
          className="border-transparent bg-white text-indigo-800 shadow-sm hover:border-transparent hover:bg-indigo-50 focus-visible:ring-white focus-visible:ring-offset-indigo-700"
        />
      </div>
    </section>
  );
}
