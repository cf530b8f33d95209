export { registerLearnersRoutes } from "./learners/learners.routes";
export { createLearnersService } from "./learners/learners.service";
export { createLearnersImportService } from "./learners/learners-import.service";
export { registerRemindersRoutes } from "./reminders/reminders.routes";
export { createMailJobs } from "./reminders/reminders.scheduler";
export { createRemindersService } from "./reminders/reminders.service";
export { registerReportsRoutes } from "./reports/reports.routes";
export { createReportsService } from "./reports/reports.service";
