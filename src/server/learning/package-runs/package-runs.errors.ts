import { conflict } from "../../plugins/errors";

export const notSatisfied = () =>
  conflict(
    "modules.package_reports_completion",
    "This module is a SCORM or cmi5 package: it is complete when its content reports it, not with Mark as Complete.",
  );

export const notSeatedInPackage = (remainingSeconds: number) =>
  conflict(
    "modules.package_seat_time",
    `The course asks for more time with this module's content: ${Math.ceil(remainingSeconds / 60)} more minute(s).`,
  );
