import { useMemo } from "react";
import { AttestationPage } from "../../features/credit/components/learner/attestation-page";
import { useMyRegulatorIds } from "../../features/reporting/api/get-my-regulator-ids";
import { useCourseStepRoute } from "./use-course-step-route";

/** /courses/:courseId/attestation: the learner's attestation and credit claim. */
export function CourseAttestationRoute() {
  const { courseId, courseTitle, certificateAction, onStepDone } = useCourseStepRoute();
  // Where the course reports credit: a claim there asks the learner's consent to the
  // reporting, and the identifiers its regulators need.
  const reported = useMyRegulatorIds(courseId).data;
  const reporting = useMemo(
    () =>
      reported?.consent && reported.course
        ? { consent: reported.consent, regulators: reported.course }
        : null,
    [reported],
  );
  return (
    <AttestationPage
      key={courseId}
      courseId={courseId}
      courseTitle={courseTitle}
      certificateAction={certificateAction}
      onAttested={onStepDone}
      reporting={reporting}
    />
  );
}
