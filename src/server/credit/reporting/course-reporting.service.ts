import {
  type AuditChange,
  type CourseReporting,
  type CourseReportingBody,
  missingActivityIds,
  PARS_ACTIVITY_FORMAT_LABELS,
  type ParsActivityFormat,
  PUBLISH_MESSAGES,
  REGULATOR_NAMES,
  REGULATORS,
  type RegulatorActivity,
} from "../../../contract";
import { creditTypesOfCourse } from "../../catalogue";
import type { Executor } from "../../db/client";
import type { Actor } from "../../platform";
import { loadAttestationSettings } from "../attestations/attestations.read-model";
import {
  activityIdMissing,
  attestationRequired,
  reportingCourseNotFound,
  reportingCreditTypeNotFound,
} from "./reporting.errors";
import { courseReportingOf, regulatorsOfTypes } from "./reporting.read-model";
import { createReportingRepository } from "./reporting.repository";
import type { ReportingServiceDeps } from "./reporting.service";

/**
 * A regulator's settings as the audit trail shows them: its identifiers, and for PARS what
 * its activity record says once said; null when the type does not report to it.
 */
function shown(r: RegulatorActivity | undefined): string | null {
  if (!r) return null;
  const record = [
    r.activityFormat ? PARS_ACTIVITY_FORMAT_LABELS[r.activityFormat as ParsActivityFormat] : "",
    r.providership ? `${r.providership} providership` : "",
    r.commercialSupport === null
      ? ""
      : r.commercialSupport
        ? "commercial support"
        : "no commercial support",
    r.details.providerCode ? `provider activity ${r.details.providerCode}` : "",
    [r.details.city, r.details.state, r.details.country].filter(Boolean).join(", "),
    r.details.competencies.length ? `${r.details.competencies.length} competencies` : "",
    ...r.details.supporters.map((s) => `${s.source} $${s.amount}`),
    r.details.mocBoard ? `MOC ${r.details.mocBoard} ${r.details.mocCreditType}` : "",
    r.details.subjectArea ? `subject area ${r.details.subjectArea}` : "",
    r.details.registeredFrom
      ? `registered ${r.details.registeredFrom} to ${r.details.registeredTo}`
      : "",
  ];
  return [r.activityId, r.providerId, ...record].filter(Boolean).join(" / ") || "(no identifier)";
}

/** What each course's credit types report, and to whom; whether such a course may be published. */
export function createCourseReportingService(deps: ReportingServiceDeps) {
  const { db } = deps;

  /**
   * Refuses publishing a course whose credit types report to a regulator while an
   * identifier of the activity is missing, or while it asks for no attestation (where
   * learners claim their credit and give their identifiers). A course reporting nowhere
   * is not concerned.
   */
  async function assertPublishable(tx: Executor, courseId: string): Promise<void> {
    const reporting = await courseReportingOf(tx, courseId);
    const reported = reporting.types.filter((t) => t.regulators.length);
    if (!reported.length) return;
    for (const t of reported) {
      for (const r of t.regulators) {
        const missing = missingActivityIds(r);
        if (missing.length) throw activityIdMissing(t.name, r.regulator, missing);
      }
    }
    if (!(await loadAttestationSettings(tx, courseId))?.attestationRequired) {
      throw attestationRequired();
    }
  }

  deps.events.subscribe("course.publishing", {
    inTransaction: (tx, { courseId }) => assertPublishable(tx, courseId),
  });

  // The catalogue says which regulators a credit is reported to; a course offering it that
  // does not report it there is told before publishing, while its claims can still reach them.
  deps.events.subscribe("course.publish-review", {
    async inTransaction(tx, { creditTypes, checks }) {
      const expected = creditTypes.filter((t) => t.regulators.length);
      if (!expected.length) return;
      const reported = await regulatorsOfTypes(
        tx,
        expected.map((t) => t.id),
      );
      for (const t of expected) {
        for (const regulator of t.regulators) {
          if (reported.get(t.id)?.some((r) => r.regulator === regulator)) continue;
          checks.push({
            key: "reporting",
            severity: "warning",
            message: PUBLISH_MESSAGES.reporting(t.name, REGULATOR_NAMES[regulator]),
            moduleId: null,
          });
        }
      }
    },
  });

  return {
    /** The course's credit types and whom each reports to (administrators). */
    async courseReporting(courseId: string): Promise<CourseReporting> {
      if (!(await deps.courses.findRow(courseId))) throw reportingCourseNotFound();
      return courseReportingOf(db, courseId);
    },

    /**
     * Sets the regulators of the credit types named (types left out keep theirs), records
     * what changed, and answers the course's whole reporting.
     */
    async saveCourseReporting(
      courseId: string,
      body: CourseReportingBody,
      actor: Actor,
    ): Promise<CourseReporting> {
      const course = await deps.courses.findRow(courseId);
      if (!course) throw reportingCourseNotFound();
      await db.transaction(async (tx) => {
        const txRepo = createReportingRepository(tx);
        await txRepo.lockCourse(courseId);
        const ids = body.types.map((t) => t.creditTypeId);
        const known = new Set((await txRepo.typesOfCourse(courseId, ids)).map((t) => t.id));
        if (ids.some((id) => !known.has(id))) throw reportingCreditTypeNotFound();
        const types = await creditTypesOfCourse(tx, courseId);
        const before = await regulatorsOfTypes(tx, ids);
        const changes: AuditChange[] = [];
        for (const t of body.types) {
          const after: RegulatorActivity[] = t.regulators.map((r) => ({
            regulator: r.regulator,
            activityId: r.activityId,
            providerId: r.providerId,
            activityFormat: r.activityFormat,
            providership: r.providership,
            commercialSupport: r.commercialSupport,
            details: r.details,
          }));
          await txRepo.replaceRegulators(t.creditTypeId, after);
          const name = types.find((type) => type.id === t.creditTypeId)?.name ?? t.creditTypeId;
          for (const regulator of REGULATORS) {
            const was = shown(before.get(t.creditTypeId)?.find((r) => r.regulator === regulator));
            const now = shown(after.find((r) => r.regulator === regulator));
            if (was !== now) {
              changes.push({ field: `${name}: ${REGULATOR_NAMES[regulator]}`, from: was, to: now });
            }
          }
        }
        if (changes.length) {
          await deps.audit.append(tx, {
            type: "reporting.settings_updated",
            actor,
            courseId,
            details: { courseTitle: course.title, changes },
          });
        }
      });
      return courseReportingOf(db, courseId);
    },
  };
}
