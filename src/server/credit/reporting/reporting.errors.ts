import {
  MESSAGES,
  PARS_ACTIVITY_MESSAGES,
  REPORTING_MESSAGES,
  type Regulator,
} from "../../../contract";
import { badRequest, conflict, notFound } from "../../plugins/errors";

export const reportingCourseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const activityIdMissing = (creditName: string, regulator: Regulator, missing: string[]) =>
  conflict(
    "reporting.activity_id_missing",
    REPORTING_MESSAGES.activityIdMissing(creditName, regulator, missing),
  );
export const attestationRequired = () =>
  conflict("reporting.attestation_required", REPORTING_MESSAGES.attestationNeeded);
export const reportingCreditTypeNotFound = () =>
  badRequest("reporting.credit_type_not_found", REPORTING_MESSAGES.creditTypeNotFound);
export const courseNotReporting = (regulator: Regulator) =>
  conflict("reporting.course_not_reporting", REPORTING_MESSAGES.notReporting(regulator));
export const nothingToReport = (refused: number) =>
  conflict(
    "reporting.nothing_to_report",
    refused
      ? `${REPORTING_MESSAGES.nothingToReport} ${refused === 1 ? "1 claim is" : `${refused} claims are`} refused: the claims list says why.`
      : REPORTING_MESSAGES.nothingToReport,
  );
export const reportFileNotFound = () =>
  notFound("reporting.file_not_found", REPORTING_MESSAGES.fileNotFound);
export const alreadySubmitted = () =>
  conflict("reporting.already_submitted", REPORTING_MESSAGES.alreadySubmitted);
/** Every PARS activity record of the course misses a required value (each named). */
export const activityRecordIncomplete = (reasons: string[]) =>
  conflict("reporting.activity_record_incomplete", PARS_ACTIVITY_MESSAGES.incomplete(reasons));
/** CPE Monitor takes completions by its web service, one by one: it has no file. */
export const submittedByService = () =>
  conflict("reporting.submitted_by_service", REPORTING_MESSAGES.submittedByService);
/** What the regulator's service needs is not in the reporting settings yet. */
export const connectionMissing = (missing: string[]) =>
  conflict("reporting.connection_missing", REPORTING_MESSAGES.connectionMissing(missing));
/** A credential cannot be kept: the portal runs without SECRETS_KEY. */
export const secretsKeyMissing = () =>
  conflict("reporting.secrets_key_missing", REPORTING_MESSAGES.secretsKeyMissing);
/** A connection setting of another regulator, or one breaking its rule. */
export const connectionInvalid = (message: string) =>
  badRequest("reporting.connection_invalid", message);
