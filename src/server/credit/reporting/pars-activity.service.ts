import type { ParsActivityFileBody, RefusedRow, ReportFile } from "../../../contract";
import type { Actor } from "../../platform";
import { type ParsActivityRecord, parsActivityFile } from "./pars-activity-file";
import { parsActivityRecords } from "./pars-activity-records";
import type { ReportFileStore } from "./report-file-store";
import { activityRecordIncomplete } from "./reporting.errors";
import type { ReportingServiceDeps } from "./reporting.service";

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The PARS activity file: the course's activity record, in ACCME's upload format. */
export function createParsActivityService(deps: ReportingServiceDeps, fileStore: ReportFileStore) {
  const { db } = deps;
  const clock = deps.now ?? (() => new Date());

  return {
    /**
     * The course's PARS activity record: one row per credit type reporting to PARS, its
     * learners counted over the range (by default from the activity's start to today). A
     * record missing a required value is listed apart with the reason; when every one is,
     * nothing is written and the answer says why.
     */
    async generateParsActivity(body: ParsActivityFileBody, actor: Actor): Promise<ReportFile> {
      const { course, reporting } = await fileStore.reportingCourse(body.courseId, "pars");
      const { records, range } = await parsActivityRecords(db, {
        course,
        reporting,
        range: body.from && body.to ? { from: body.from, to: body.to } : null,
        today: dayOf(clock()),
      });
      const rows: ParsActivityRecord[] = [];
      const refused: RefusedRow[] = [];
      const written = new Set<string>();
      for (const record of records) {
        let reason = parsActivityFile.refusal(record);
        if (!reason && written.has(record.activityId)) {
          reason =
            "Another credit type of this course has the same PARS activity ID: its record is written once.";
        }
        if (reason) {
          refused.push({
            claimKey: `activity:${record.creditTypeId}`,
            learnerName: "",
            completedOn: "",
            activity: record.activityId
              ? `${record.creditName} (PARS activity ${record.activityId})`
              : record.creditName,
            reason,
          });
          continue;
        }
        written.add(record.activityId);
        rows.push(record);
      }
      if (!rows.length) {
        throw activityRecordIncomplete(refused.map((r) => `${r.activity}: ${r.reason}`));
      }
      return fileStore.store({
        regulator: "pars",
        kind: "activities",
        course,
        from: range.from,
        to: range.to,
        format: parsActivityFile,
        bytes: parsActivityFile.write(rows),
        rowCount: rows.length,
        refused,
        claims: [],
        actor,
      });
    },
  };
}
