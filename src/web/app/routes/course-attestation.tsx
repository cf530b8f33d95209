import { AttestationPage } from "../../features/credit/components/learner/attestation-page";
import { RegulatorIdsPanel } from "../../features/reporting/components/regulator-ids-panel";
import { useCourseStepRoute } from "./use-course-step-route";

/** /courses/:courseId/attestation: the learner's attestation and credit claim. */
export function CourseAttestationRoute() {
  const { courseId, courseTitle, certificateAction, onStepDone } = useCourseStepRoute();
  return (
    <AttestationPage
      key={courseId}
      courseId={courseId}
      courseTitle={courseTitle}
      certificateAction={certificateAction}
      onAttested={onStepDone}
      beforeAttesting={<RegulatorIdsPanel courseId={courseId} />}
    />
  );
}
