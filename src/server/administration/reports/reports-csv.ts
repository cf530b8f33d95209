import type { Reports } from "../../../contract";
import { csvRow } from "../../lib/csv";

const row = (...fields: (string | number)[]) => csvRow(fields);

/** The report as CSV sections, yielded line by line so the response streams. */
export function* reportCsvLines(report: Reports, generatedAt: Date): Generator<string> {
  const s = report.summary;
  yield row("Report generated", generatedAt.toISOString());
  yield "\r\n";
  yield row("Summary");
  yield row(
    "Total Learners",
    "Total Enrollments",
    "Completions",
    "Completion Rate (%)",
    "Avg. Progress (%)",
  );
  yield row(s.totalLearners, s.totalEnrollments, s.completions, s.completionRate, s.avgProgress);
  yield "\r\n";
  yield row("Course Performance");
  yield row(
    "Course",
    "Category",
    "Enrollments",
    "Completions",
    "Completion Rate (%)",
    "Avg. Progress (%)",
  );
  for (const c of report.courses) {
    yield row(c.title, c.category, c.enrollments, c.completions, c.completionRate, c.avgProgress);
  }
  yield "\r\n";
  yield row("Category Performance");
  yield row(
    "Category",
    "Courses",
    "Enrollments",
    "Completions",
    "Completion Rate (%)",
    "Avg. Progress (%)",
  );
  for (const c of report.categories) {
    yield row(c.category, c.courses, c.enrollments, c.completions, c.completionRate, c.avgProgress);
  }
  yield "\r\n";
  yield row("Recent Completions");
  yield row("Learner", "Email", "Course", "Completed At");
  for (const c of report.recentCompletions) {
    yield row(c.learnerName, c.learnerEmail, c.courseTitle, c.completedAt);
  }
}

/** One learner's watching of one module, as the export lists it. */
export interface WatchCsvRecord {
  learnerName: string;
  learnerEmail: string;
  courseTitle: string;
  moduleTitle: string;
  watchedPercent: number;
  watchedSeconds: number;
  seatSeconds: number;
  lastWatchedAt: string;
}

/** The watched share and seat time per learner and module, after the report. */
export async function* watchCsvLines(records: AsyncIterable<WatchCsvRecord>) {
  yield "\r\n";
  yield row("Watch Progress");
  yield row(
    "Learner",
    "Email",
    "Course",
    "Module",
    "Watched (%)",
    "Watched (s)",
    "Seat Time (s)",
    "Last Watched At",
  );
  for await (const r of records) {
    yield row(
      r.learnerName,
      r.learnerEmail,
      r.courseTitle,
      r.moduleTitle,
      r.watchedPercent,
      r.watchedSeconds,
      r.seatSeconds,
      r.lastWatchedAt,
    );
  }
}

/** One learner's standing on one package module (SCORM or cmi5), as the export lists it. */
export interface PackageCsvRecord {
  learnerName: string;
  learnerEmail: string;
  courseTitle: string;
  moduleTitle: string;
  /** What the module plays ("SCORM 1.2", "SCORM 2004", "cmi5"). */
  content: string;
  status: string;
  scorePercent: number | null;
  reportedSeconds: number;
  seatSeconds: number;
  attempts: number;
  moduleCompleted: boolean;
  lastActivityAt: string | null;
}

/**
 * The status, score and times per learner and package module, after the watching: a
 * section only when some learner launched a package, so a portal of videos exports as
 * before.
 */
export async function* packageCsvLines(records: AsyncIterable<PackageCsvRecord>) {
  let first = true;
  for await (const r of records) {
    if (first) {
      first = false;
      yield "\r\n";
      yield row("Package Progress");
      yield row(
        "Learner",
        "Email",
        "Course",
        "Module",
        "Content",
        "Status",
        "Score (%)",
        "Reported Time (s)",
        "Seat Time (s)",
        "Attempts",
        "Module Completed",
        "Last Activity At",
      );
    }
    yield csvRow([
      r.learnerName,
      r.learnerEmail,
      r.courseTitle,
      r.moduleTitle,
      r.content,
      r.status,
      r.scorePercent,
      r.reportedSeconds,
      r.seatSeconds,
      r.attempts,
      r.moduleCompleted ? "Yes" : "No",
      r.lastActivityAt,
    ]);
  }
}
