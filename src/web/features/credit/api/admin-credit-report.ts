/** GET /api/courses/:id/credit-report: every learner's claim as CSV, for the accreditor. */
export const creditReportCsvUrl = (courseId: string) =>
  `/api/courses/${encodeURIComponent(courseId)}/credit-report`;
