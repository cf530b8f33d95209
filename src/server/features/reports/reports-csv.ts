import type { Reports } from "../../../contract";

/** RFC 4180 field; a leading =, +, - or @ is neutralised so spreadsheets never run it. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const row = (...fields: (string | number)[]) => `${fields.map(csvField).join(",")}\r\n`;

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
