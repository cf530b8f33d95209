import { conflict } from "../../plugins/errors";

export const completedByContent = () =>
  conflict(
    "modules.package_reports_completion",
    "This module is a SCORM or cmi5 package: it is complete when its content reports it, not with Mark as Complete.",
  );
