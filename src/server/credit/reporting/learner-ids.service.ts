import {
  type MyRegulatorIds,
  REGULATORS,
  type RegulatorIdsBody,
  reportingConsentStatement,
} from "../../../contract";
import type { Viewer } from "../../catalogue";
import { claimRegulatorIds, courseReportingOf, regulatorsOfCourse } from "./reporting.read-model";
import type { ReportingServiceDeps } from "./reporting.service";

/**
 * The identifiers a learner gives the regulators: the learner's own, never another's, kept
 * in their one record of identifiers (the identifiers feature).
 */
export function createLearnerIdsService(deps: ReportingServiceDeps) {
  const { db, identifiers } = deps;

  return {
    /**
     * The regulators each claimed credit type reports to, with the identifiers the learner
     * gave them, and what is still missing: asked in the attestation's own transaction.
     */
    claimRegulatorIds,

    /**
     * The learner's identifiers and, for a course they can open, the regulators it reports to
     * with the consent a claim there asks for.
     */
    async myIds(viewer: Viewer, courseId?: string): Promise<MyRegulatorIds> {
      const ids = await identifiers.regulatorIds(viewer.id);
      if (!courseId) return { ids, course: null, consent: null };
      await deps.courses.get(courseId, viewer, deps.enrollments);
      const reporting = await courseReportingOf(db, courseId);
      const course = REGULATORS.flatMap((regulator) => {
        const creditTypeIds = reporting.types
          .filter((t) => t.regulators.some((r) => r.regulator === regulator))
          .map((t) => t.creditTypeId);
        return creditTypeIds.length ? [{ regulator, creditTypeIds }] : [];
      });
      const regulators = regulatorsOfCourse(reporting);
      const consent = regulators.length
        ? reportingConsentStatement((await deps.organisation.profile()).issuerName, regulators)
        : null;
      return { ids, course, consent };
    },

    /** Saves them into the learner's record, which may complete a course waiting for a licence. */
    async saveMyIds(viewer: Viewer, body: RegulatorIdsBody): Promise<MyRegulatorIds> {
      const ids = await identifiers.saveRegulatorIds(viewer, body);
      return { ids, course: null, consent: null };
    },
  };
}
