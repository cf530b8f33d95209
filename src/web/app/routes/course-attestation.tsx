import { useMemo } from "react";
import { AttestationPage } from "../../features/credit/components/learner/attestation-page";
import { useMyRegulatorIds } from "../../features/reporting/api/get-my-regulator-ids";
import { RegulatorIdsPanel } from "../../features/reporting/components/regulator-ids-panel";
import { useCourseStepRoute } from "./use-course-step-route";

/** /courses/:courseId/attestation: the learner's attestation and credit claim. */
export function CourseAttestationRoute() {
  const { courseId, courseTitle, certificateAction, onStepDone } = useCourseStepRoute();
  // A claim of a type reported to a regulator asks the learner's consent to the reporting.
  const reporting = useMyRegulatorIds(courseId).data;
  const reportingConsent = useMemo(
    () =>
      reporting?.consent && reporting.course
        ? {
            statement: reporting.consent,
            creditTypeIds: reporting.course.flatMap((c) => c.creditTypeIds),
          }
        : null,
    [reporting],
  );
  return (
    <AttestationPage
      key={courseId}
      courseId={courseId}
      courseTitle={courseTitle}
      certificateAction={certificateAction}
      onAttested={onStepDone}
      beforeAttesting={<RegulatorIdsPanel courseId={courseId} />}
      reportingConsent={reportingConsent}
    />
  );
}
