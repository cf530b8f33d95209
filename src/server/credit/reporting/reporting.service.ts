import type { CoursesService, LearnerEnrollments } from "../../catalogue";
import type { Database } from "../../db/client";
import type { Events } from "../../lib/events";
import type { SecretBox } from "../../lib/secret-box";
import type { AuditService, OrganisationService } from "../../platform";
import type { IdentifiersService } from "../identifiers/identifiers.service";
import { createCourseReportingService } from "./course-reporting.service";
import { createCpeMonitorService } from "./cpe-monitor.service";
import { createLearnerIdsService } from "./learner-ids.service";
import { createParsActivityService } from "./pars-activity.service";
import { createRegulatorConnectionsService } from "./regulator-connections.service";
import { createRegulatorDeadlinesService } from "./regulator-deadlines.service";
import { createReportClaims } from "./report-claims";
import { createReportFileStore } from "./report-file-store";
import { createReportFilesService } from "./report-files.service";
import { createReportingRepository } from "./reporting.repository";

export interface ReportingServiceDeps {
  db: Database;
  /** The courses feature: a course's row, and whether a learner may see it. */
  courses: Pick<CoursesService, "findRow" | "get">;
  /** The learning context: a learner sees the reporting of a course they are enrolled in. */
  enrollments: LearnerEnrollments;
  audit: Pick<AuditService, "append">;
  /** The provider a learner agrees may report their completion (its name). */
  organisation: Pick<OrganisationService, "profile">;
  /** The clock of deadlines (days waiting since completion); tests pass one they can move. */
  now?: () => Date;
  /** Publishing a course that reports to a regulator waits for what reporting needs. */
  events: Pick<Events, "subscribe">;
  /** The learner's one record of identifiers, which the regulators' view reads and saves. */
  identifiers: Pick<IdentifiersService, "regulatorIds" | "saveRegulatorIds">;
  /** Seals the regulators' credentials; absent when the portal has no secrets key. */
  secrets?: SecretBox;
}

/**
 * Regulator reporting: what each course's credit types report and to whom
 * (course-reporting.service.ts), the identifiers learners give (learner-ids.service.ts), the
 * report files in each regulator's upload format (report-files.service.ts, and the PARS
 * activity record in pars-activity.service.ts), and which claims are reported and overdue
 * (regulator-deadlines.service.ts), how Credo reaches CE Broker and CPE Monitor
 * (regulator-connections.service.ts) and CPE Monitor's web service (cpe-monitor.service.ts).
 * A claim is reported while a
 * submitted file holds its row as it stands now; the next file takes only what is new or
 * changed since.
 */
export function createReportingService(deps: ReportingServiceDeps) {
  const reportClaims = createReportClaims({
    repo: createReportingRepository(deps.db),
    clock: deps.now ?? (() => new Date()),
  });
  const fileStore = createReportFileStore(deps);
  const connections = createRegulatorConnectionsService(deps);
  return {
    ...createCourseReportingService(deps),
    ...createLearnerIdsService(deps),
    ...createReportFilesService(deps, reportClaims, fileStore, connections),
    ...connections,
    ...createCpeMonitorService(deps, reportClaims, fileStore, connections),
    ...createParsActivityService(deps, fileStore),
    ...createRegulatorDeadlinesService(deps, reportClaims),
  };
}

export type ReportingService = ReturnType<typeof createReportingService>;
